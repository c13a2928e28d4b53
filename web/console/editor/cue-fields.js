// Which fields the form shows for an item, built from the score's own rules (docs/reference/score-format.md#field-reference)
// : a view cue's text, instruction, colour, image (one of the score's image assets) and the
// engraved score shown on the phones, a sound's asset and gain, an OSC cue's part, address and arguments, a prompt's
// question and length, a reaction window's end and label. Positions first, for every item.

/**
 * @typedef {{ keys: string[], label: string, type: 'text' | 'number' | 'json' | 'optional' | 'colour', options?: string[], placeholder?: string }} Field
 */

/**
 * @param {'cues' | 'prompts' | 'reactions'} list
 * @param {any} item
 * @param {any} doc
 * @returns {Field[]}
 */
export function fieldsFor(list, item, doc) {
  const assets = (/** @type {string} */ kind) =>
    (Array.isArray(doc.assets) ? doc.assets : []).filter((a) => a?.kind === kind).map((a) => a.id);
  /** @type {Field[]} */
  const fields = [
    { keys: ['at', 'bar'], label: 'Bar', type: 'number' },
    { keys: ['at', 'beat'], label: 'Beat', type: 'number', placeholder: '1' },
  ];
  if (list === 'prompts')
    return [
      ...fields,
      { keys: ['question'], label: 'Question', type: 'text' },
      { keys: ['beats'], label: 'Open for (beats)', type: 'number' },
      { keys: ['id'], label: 'Id', type: 'text' },
      // Options with their branches: [{ "id", "label", "section" }, …] (docs/reference/score-format.md#scores)
      { keys: ['options'], label: 'Options (JSON)', type: 'json' },
    ];
  if (list === 'reactions')
    return [
      ...fields,
      { keys: ['until', 'bar'], label: 'Until bar', type: 'number' },
      { keys: ['until', 'beat'], label: 'Until beat', type: 'number', placeholder: '1' },
      { keys: ['label'], label: 'Button', type: 'optional' },
    ];
  fields.push({ keys: ['label'], label: 'Label', type: 'optional' });
  if (item.audio)
    return [
      ...fields,
      { keys: ['audio', 'asset'], label: 'Sound', type: 'text', options: assets('audio') },
      { keys: ['audio', 'gain'], label: 'Gain', type: 'number' },
    ];
  if (item.osc) {
    const parts = (Array.isArray(doc.parts) ? doc.parts : []).map((p) => p?.id).filter(Boolean);
    return [
      ...fields,
      ...(parts.length ? [/** @type {Field} */ ({ keys: ['osc', 'part'], label: 'Part', type: 'optional', options: parts })] : []),
      { keys: ['osc', 'address'], label: 'Address', type: 'text' },
      { keys: ['osc', 'args'], label: 'Arguments (JSON list)', type: 'json' },
    ];
  }
  /** @type {Field[]} */
  const view = [
    ...fields,
    { keys: ['view', 'text'], label: 'Text', type: 'text' },
    { keys: ['view', 'instruction'], label: 'Instruction', type: 'optional' },
    { keys: ['view', 'color'], label: 'Colour', type: 'colour' },
    { keys: ['view', 'image'], label: 'Image', type: 'optional', options: assets('image') },
  ];
  // The engraved score on the phones (docs/how-to/part-pages-notation.md#let-the-audience-follow-the-score):
  // offered only when the score has notation to show, as the validator requires.
  if (typeof doc.notation === 'string' && doc.notation !== '') {
    const parts = (Array.isArray(doc.parts) ? doc.parts : []).map((p) => p?.id).filter(Boolean);
    view.push({ keys: ['view', 'score'], label: 'Score on phones', type: 'optional', options: ['all', ...parts] });
  }
  return view;
}
