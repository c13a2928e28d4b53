// What a performance record says happened (docs/how-to/record-and-replay.md#the-performance-record), read once
// from its entries for the report: the state replayed envelope by envelope (snapshots and merge
// patches, as a phone does) into transport spans, sections as they were played and the tempo
// over time; the actions with who made them; the votes; the sampled audience and sync figures;
// the warnings, errors and refused input; the server's stops and crash-resumes.

import { applyMergePatch } from '#core/protocol/merge-patch.js';

/**
 * @typedef {{ from: number, to: number, transport: string }} TransportSpan
 * @typedef {{ from: number, to: number, mark: string, name: string | null, bar: number }} SectionSpan
 * @typedef {{ from: number, to: number }} RehearsalSpan when the audience saw "the show starts soon" (docs/how-to/rehearse.md#rehearsal-mode)
 * @typedef {ReturnType<typeof buildStory>} Story
 */

/** Close the open span at `t` and push it. */
const closeSpan = (open, list, t) => {
  if (open && t > open.from) list.push({ ...open, to: t });
};

/**
 * @param {any[]} entries a record's entries in order (record-reader.js)
 * @param {{ torn?: number, bytes?: { disk: number, json: number }, id?: string }} [about]
 */
export function buildStory(entries, about = {}) {
  const opens = entries.filter((e) => e.k === 'open');
  const first = opens[0];
  const start = first.t;
  const last = entries.reduce((t, e) => Math.max(t, e.k === 'env' ? e.e.t : (e.t ?? 0)), start);
  const closed = entries.some((e) => e.k === 'close');

  /** @type {TransportSpan[]} */ const transports = [];
  /** @type {SectionSpan[]} */ const sections = [];
  /** @type {Array<[number, number]>} */ const tempo = [];
  /** @type {Array<{ from: number, to: number }>} */ const outages = [];
  /** @type {RehearsalSpan[]} */ const rehearsals = [];
  let openRehearsal = null;
  /** @type {string[]} */ const scores = [];
  let state = null;
  let openTransport = null;
  let openSection = null;
  let lastT = start;
  let envelopes = 0;

  const follow = (t) => {
    const transport = state?.transport ?? 'stopped';
    if (openTransport?.transport !== transport) {
      closeSpan(openTransport, transports, t);
      openTransport = { from: t, transport };
    }
    const section = transport === 'playing' && state?.section ? state.section : null;
    const same = openSection && section && openSection.mark === section.mark && openSection.bar === section.bar;
    if (!same) {
      closeSpan(openSection, sections, t);
      openSection = section ? { from: t, mark: section.mark, name: section.name ?? null, bar: section.bar } : null;
    }
    if (typeof state?.tempo === 'number' && state.tempo !== tempo.at(-1)?.[1]) tempo.push([t, state.tempo]);
    // Rehearsal mode is in the envelopes themselves, so a crash-resumed record still shows it.
    if (state?.rehearsal === true && !openRehearsal) openRehearsal = { from: t };
    else if (state?.rehearsal !== true && openRehearsal) {
      closeSpan(openRehearsal, rehearsals, t);
      openRehearsal = null;
    }
  };

  for (const entry of entries) {
    if (entry.k === 'open') {
      if (entry !== first) {
        // A crash-resume: the server was gone from its last line to this one.
        outages.push({ from: lastT, to: entry.t });
        closeSpan(openTransport, transports, lastT);
        closeSpan(openSection, sections, lastT);
        closeSpan(openRehearsal, rehearsals, lastT);
        openTransport = null;
        openSection = null;
        openRehearsal = null;
      }
      if (!scores.includes(entry.score.title)) scores.push(entry.score.title);
      continue;
    }
    if (entry.k === 'score' && !scores.includes(entry.score.title)) scores.push(entry.score.title);
    if (entry.k !== 'env') {
      lastT = Math.max(lastT, entry.t ?? lastT);
      continue;
    }
    const envelope = entry.e;
    envelopes += 1;
    state = envelope.type === 'snapshot' || !state ? envelope.data : applyMergePatch(state, envelope.data);
    lastT = Math.max(lastT, envelope.t);
    follow(envelope.t);
  }
  closeSpan(openTransport, transports, last);
  closeSpan(openSection, sections, last);
  closeSpan(openRehearsal, rehearsals, last);

  const samples = entries.filter((e) => e.k === 'sample');
  /** @type {Record<string, number>} */
  const refused = {};
  for (const s of samples) for (const [source, n] of Object.entries(s.refused ?? {})) refused[source] = (refused[source] ?? 0) + n;
  const playedMs = transports.filter((s) => s.transport === 'playing').reduce((sum, s) => sum + (s.to - s.from), 0);

  return {
    id: about.id ?? first.id,
    start,
    end: last,
    closed,
    playedMs,
    scores,
    version: first.version,
    transports,
    sections,
    rehearsals,
    tempo,
    outages,
    resumes: opens.length - 1,
    actions: entries.filter((e) => e.k === 'act'),
    votes: entries.filter((e) => e.k === 'vote'),
    samples,
    problems: entries.filter((e) => e.k === 'log'),
    refused,
    envelopes,
    torn: about.torn ?? 0,
    bytes: about.bytes ?? null,
  };
}
