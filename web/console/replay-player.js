// A performance record played back (docs/how-to/record-and-replay.md#replaying-a-record): the record's entries in
// the order written, turned into what the audience saw at any moment of the show. Envelopes are
// applied as a phone applies them (snapshot, then merge patches, core/protocol/merge-patch.js)
// at the time they were sent; what they announce — the beat with its section, transport and
// tempo (`position.at`) and the view (`view.at`) — is shown at its own time, as a phone shows it. Pure: no DOM, no timers, no
// network; the replay panel drives it with its own clock, so nothing reaches the audience or OSC.

import { applyMergePatch } from '../../core/protocol/merge-patch.js';
import { createBeatSchedule } from '../../core/client/beat-schedule.js';

/** When an entry happened (record time, server clock ms). */
const timeOf = (entry) => (entry.k === 'env' ? entry.e.t : entry.t);

/** How many past actions a moment lists. */
const RECENT_ACTIONS = 6;

/**
 * Every image and sound the record's envelopes name, once each, with the score they belong to
 * (moment().scoreIndex counts the same entries), so the replay can fetch them before they are due.
 * @param {any[]} entries
 * @returns {Array<{ src: string, scoreIndex: number }>}
 */
function namedMedia(entries) {
  const found = new Map();
  let scores = 0;
  for (const entry of entries) {
    if (entry.k === 'open' || entry.k === 'score') scores += 1;
    if (entry.k !== 'env') continue;
    const scoreIndex = Math.max(0, scores - 1);
    for (const src of [entry.e.data?.view?.image, entry.e.data?.audio?.src])
      if (typeof src === 'string') found.set(`${scoreIndex}\n${src}`, { src, scoreIndex });
  }
  return [...found.values()];
}

/**
 * @param {any[]} entries every entry of one record, in order (GET /api/records/<id>/entries)
 */
export function createReplayPlayer(entries) {
  const timed = entries.filter((e) => typeof timeOf(e) === 'number');
  const start = timed.find((e) => e.k === 'open')?.t ?? timeOf(timed[0]) ?? 0;
  const end = timed.reduce((t, e) => Math.max(t, timeOf(e)), start);
  const actions = timed.filter((e) => e.k === 'act');

  let next = 0;
  let at = -Infinity;
  /** @type {Record<string, any> | null} */
  let state = null;
  /**
   * Beats and views announced but not yet due, queued as a phone queues them: a later envelope
   * that is due no later than a queued item (a stop, a pause, a seek) drops it, so a beat the
   * stop took back is never shown after the stop (core/client/beat-schedule.js).
   */
  let pending = createBeatSchedule();
  /** @type {{ frame: any, view: any }} */
  let shown = { frame: null, view: null };
  let lastVote = null;
  let lastSample = null;
  let envelopes = 0;
  /** How many entries naming a score (`open`, `score`) have been applied: the media route's `?score=`. */
  let scores = 0;

  function reset() {
    next = 0;
    at = -Infinity;
    state = null;
    pending = createBeatSchedule();
    shown = { frame: null, view: null };
    lastVote = null;
    lastSample = null;
    envelopes = 0;
    scores = 0;
  }

  function apply(entry) {
    if (entry.k === 'vote') lastVote = entry;
    else if (entry.k === 'sample') lastSample = entry;
    else if (entry.k === 'open' || entry.k === 'score') scores += 1;
    if (entry.k !== 'env') return;
    const before = state;
    state = entry.e.type === 'snapshot' || !state ? entry.e.data : /** @type {any} */ (applyMergePatch(state, entry.e.data));
    envelopes += 1;
    const s = /** @type {Record<string, any>} */ (state);
    // Section, transport and tempo change with the beat they belong to, so they travel with it (as on a phone).
    const frameChanged = ['position', 'section', 'transport', 'tempo'].some((key) => s[key] !== before?.[key]);
    if (frameChanged) {
      const frame = { position: s.position ?? null, section: s.section ?? null, transport: s.transport ?? null, tempo: s.tempo ?? null };
      pending.add('frame', s.position?.at ?? entry.e.t, String(envelopes), frame);
    }
    if (s.view !== before?.view) pending.add('view', s.view?.at ?? entry.e.t, String(envelopes), s.view ?? null);
  }

  return {
    start,
    end,
    actions,
    /** The images and sounds the record names (namedMedia). */
    media: namedMedia(timed),
    /**
     * Move the replay to record time `t`: forward applies what happened since; backward starts again from the top.
     * @param {number} t
     */
    advanceTo(t) {
      if (t < at) reset();
      at = t;
      while (next < timed.length && timeOf(timed[next]) <= t) apply(timed[next++]);
      for (const p of pending.due(t)) shown[/** @type {'frame' | 'view'} */ (p.kind)] = p.payload;
    },
    /** What the audience saw at the current time, and what happened around it. */
    moment() {
      const s = /** @type {Record<string, any>} */ (state ?? {});
      const done = actions.filter((a) => a.t <= at);
      const frame = shown.frame ?? {};
      return {
        t: at,
        transport: frame.transport ?? null,
        tempo: frame.tempo ?? null,
        section: frame.section ?? null,
        position: frame.position ?? null,
        view: shown.view,
        audio: s.audio ?? null,
        vote: s.vote ?? null,
        rehearsal: s.rehearsal === true,
        score: s.score ?? null,
        scoreIndex: Math.max(0, scores - 1),
        lastVote: lastVote && lastVote.t <= at ? lastVote : null,
        sample: lastSample,
        recent: done.slice(-RECENT_ACTIONS),
        actionsDone: done.length,
        envelopes,
      };
    },
  };
}
