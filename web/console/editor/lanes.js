// Which lane each thing in the score belongs to, and how it is named there. Lanes, top to
// bottom: the audience view (texts, colours, images), audience sounds, one lane per part's OSC
// cues (and one for cues that name no part), prompts (and their branches), reaction windows.
// An item is `{ list, index }`: its place in the score file (`cues[3]`), which is also where
// `tutti validate` reports its problems.

/**
 * @typedef {{ id: string, title: string }} Lane
 * @typedef {{ list: 'cues' | 'prompts' | 'reactions', index: number }} ItemRef
 * @typedef {ItemRef & { lane: string, at: { bar: number, beat?: number }, until?: { bar: number, beat?: number }, beats?: number, label: string }} Item
 */

/**
 * The lanes of a score document, in order.
 * @param {any} doc
 * @returns {Lane[]}
 */
export function lanesOf(doc) {
  const parts = Array.isArray(doc?.parts) ? doc.parts : [];
  return [
    { id: 'view', title: 'Audience view' },
    { id: 'sound', title: 'Audience sounds' },
    ...parts.map((/** @type {any} */ p) => ({ id: `osc:${p.id}`, title: `OSC · ${p.name ?? p.id}` })),
    { id: 'osc:', title: parts.length ? 'OSC · all parts' : 'OSC cues' },
    { id: 'prompts', title: 'Prompts & branches' },
    { id: 'reactions', title: 'Reaction windows' },
  ];
}

/** The lane of a cue. @param {any} cue */
export function laneOfCue(cue) {
  if (cue?.audio) return 'sound';
  if (cue?.osc) return `osc:${typeof cue.osc.part === 'string' ? cue.osc.part : ''}`;
  return 'view';
}

const clip = (/** @type {string} */ text, n = 28) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/** A short name for a cue, as its chip in the lane reads. @param {any} cue */
export function cueLabel(cue) {
  if (cue?.view && typeof cue.view === 'object') {
    const v = cue.view;
    const words = [v.text, v.instruction].find((t) => typeof t === 'string' && t !== '');
    if (words) return clip(`“${words}”`);
    if (v.image) return `Image ${v.image}`;
    if (typeof v.score === 'string') return `Score ${v.score}`;
    if (v.color) return `Colour ${v.color}`;
    return 'View';
  }
  if (cue?.audio) return `Sound ${cue.audio.asset ?? ''}`.trim();
  if (cue?.osc) return clip(`OSC ${cue.osc.address ?? ''}`);
  return 'Cue';
}

/**
 * Every item of a document with its lane and label, in file order per list.
 * @param {any} doc
 * @returns {Item[]}
 */
export function itemsOf(doc) {
  /** @type {Item[]} */
  const items = [];
  const at = (/** @type {any} */ x) => (x && typeof x === 'object' && typeof x.bar === 'number' ? x : { bar: 1 });
  (Array.isArray(doc?.cues) ? doc.cues : []).forEach((/** @type {any} */ cue, index) =>
    items.push({ list: 'cues', index, lane: laneOfCue(cue), at: at(cue?.at), label: cueLabel(cue) }),
  );
  (Array.isArray(doc?.prompts) ? doc.prompts : []).forEach((/** @type {any} */ p, index) =>
    items.push({ list: 'prompts', index, lane: 'prompts', at: at(p?.at), beats: p?.beats, label: clip(`? ${p?.question ?? p?.id ?? ''}`) }),
  );
  (Array.isArray(doc?.reactions) ? doc.reactions : []).forEach((/** @type {any} */ r, index) =>
    items.push({ list: 'reactions', index, lane: 'reactions', at: at(r?.at), until: r?.until, label: r?.label ?? 'Tap' }),
  );
  return items;
}

/** `cues[3]` for an item: the path prefix `tutti validate` reports it under. @param {ItemRef} ref */
export const pathOf = (ref) => `${ref.list}[${ref.index}]`;

/**
 * The problems that belong to an item (their path starts with its path).
 * @param {Array<{ path: string, message: string }>} problems
 * @param {ItemRef} ref
 */
export function problemsAt(problems, ref) {
  const prefix = pathOf(ref);
  return problems.filter((p) => p.path === prefix || p.path.startsWith(`${prefix}.`) || p.path.startsWith(`${prefix}[`));
}
