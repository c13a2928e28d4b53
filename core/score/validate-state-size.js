// The rule no single field shows: view cues merge into the audience view, so a score whose
// cues each stay small can still accumulate a view that is too big to send. A snapshot over
// MAX_SNAPSHOT_BYTES (core/protocol/envelope.js) is refused by the edge (its publisher frame
// limit is the same constant) and remote viewers would freeze at their last state. This rule
// replays the score as the engine plays it (core/engine/engine.js: the same view patches, cues
// in the same order, the state after every beat that has cues) and reports the first point
// where the snapshot would exceed the limit (docs/reference/audience-protocol.md#endpoints, docs/reference/score-format.md).
//
// Linear: the view's size is kept by applying each cue's patch to a size-only copy
// (core/protocol/json-size.js), never by serializing the whole view again. The parts of the
// state that are not the view (position, tempo, section, audio) are counted at their largest.

import { createEnvelope, MAX_SNAPSHOT_BYTES } from '#core/protocol/envelope.js';
import { createSizedJson, utf8Bytes } from '#core/protocol/json-size.js';
import { viewPatch } from './audience-view.js';
import { createShowEngine } from '#core/engine/engine.js';

/** Longest `at`/`t` number the server writes (ms since 1970 with a fraction), counted at its widest. */
const WIDEST_TIME = 1e15 + 0.123456789;

/**
 * Bytes of a snapshot envelope around a state, beyond the state itself, at its largest: an
 * epoch of 64 characters, the largest seq and the widest time.
 */
export const SNAPSHOT_ENVELOPE_BYTES =
  utf8Bytes(JSON.stringify(createEnvelope('snapshot', 'x'.repeat(64), Number.MAX_SAFE_INTEGER, WIDEST_TIME, {}))) - 2;

/** `,"at":<time>` the engine adds to the view when a view cue sounds. */
const VIEW_AT_BYTES = utf8Bytes(`,"at":${Math.round(WIDEST_TIME)}`);

const kb = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The largest the state around the view can be: the engine's own state for this score with the
 * view emptied and every other member at its widest (the longest section name, the longest
 * audio cue, the largest bar/beat numbers and times).
 * @param {import('./validate-limits.js').Score} score
 * @param {ReturnType<typeof createShowEngine>} engine
 */
function widestStateAroundView(score, engine) {
  const state = engine.state();
  const timeline = engine.timeline();
  const widest = (/** @type {object[]} */ list) =>
    list.reduce(
      (best, item) => {
        const bytes = utf8Bytes(JSON.stringify(item));
        return bytes > best.bytes ? { item, bytes } : best;
      },
      { item: undefined, bytes: 0 },
    ).item;
  const maxBeats = Math.max(...score.meter.map((m) => m.beats));
  state.transport = 'playing';
  state.tempo = 99999.999; // round3(written bpm × override factor): at most 400 × 400/10, three decimals
  state.position = { bar: score.bars, beat: maxBeats, beats: maxBeats, at: Math.round(WIDEST_TIME), index: timeline.totalBeats };
  state.view = {};
  const section = widest(score.sections.map((s) => ({ mark: s.mark, ...(s.name ? { name: s.name } : {}), bar: s.at.bar })));
  if (section) state.section = section;
  else delete state.section;
  const srcs = new Map(score.assets.map((a) => [a.id, `media/${a.src}`]));
  const audio = widest(
    score.cues
      .filter((c) => c.audio)
      .map((c) => ({ cue: score.cues.length, src: srcs.get(c.audio.asset), gain: c.audio.gain ?? 1, at: Math.round(WIDEST_TIME) })),
  );
  if (audio) state.audio = audio;
  else delete state.audio;
  return utf8Bytes(JSON.stringify(state)) - 2; // without the empty view's "{}"
}

/**
 * Replay a valid, normalized score and report where its snapshot would exceed
 * MAX_SNAPSHOT_BYTES: `{ cue, bar, beat, bytes }` (cue: index in the normalized, sorted cues of
 * the last view cue applied by then, or -1 for the initial view), or null when it never does. Also returns the largest size seen.
 * @param {import('./validate-limits.js').Score} score
 * @param {number} [limit] bytes (MAX_SNAPSHOT_BYTES)
 * @returns {{ over: { cue: number, bar: number, beat: number, bytes: number } | null, largest: number }}
 */
export function snapshotSizeOverLimit(score, limit = MAX_SNAPSHOT_BYTES) {
  const engine = createShowEngine({ score, now: () => 0, setTimer: () => 0, clearTimer: () => {} });
  try {
    const around = widestStateAroundView(score, engine) + SNAPSHOT_ENVELOPE_BYTES + VIEW_AT_BYTES;
    const assets = new Map(score.assets.map((a) => [a.id, a]));
    const timeline = engine.timeline();
    const view = createSizedJson();
    view.apply(viewPatch(score.view, assets));
    let largest = around + view.bytes();
    const cues = score.cues;
    // The initial view is what the state shows until the first beat with a view cue.
    const firstIndex = cues.length ? timeline.indexOf(cues[0].at.bar, cues[0].at.beat) : Infinity;
    if (firstIndex > 0 && largest > limit) return { over: { cue: -1, bar: 1, beat: 1, bytes: largest }, largest };
    let lastViewCue = -1;
    for (let i = 0; i < cues.length; i += 1) {
      if (cues[i].view) {
        view.apply(viewPatch(cues[i].view, assets));
        lastViewCue = i;
      }
      // The state is sent once all the cues of a beat are applied (engine.js publishBeat).
      const next = cues[i + 1];
      if (next && next.at.bar === cues[i].at.bar && next.at.beat === cues[i].at.beat) continue;
      const bytes = around + view.bytes();
      if (bytes > largest) largest = bytes;
      if (bytes > limit) return { over: { cue: lastViewCue, bar: cues[i].at.bar, beat: cues[i].at.beat, bytes }, largest };
    }
    return { over: null, largest };
  } finally {
    engine.dispose();
  }
}

/**
 * Add a problem when the score's audience state would outgrow MAX_SNAPSHOT_BYTES at some point.
 * @param {import('./validate-primitives.js').CheckContext} ctx
 * @param {import('./validate-limits.js').Score} score valid and normalized
 * @param {number[]} cueOrder the original index (in the file) of each normalized cue
 */
export function checkSnapshotSize(ctx, score, cueOrder) {
  const { over } = snapshotSizeOverLimit(score);
  if (!over) return;
  const path = over.cue < 0 ? 'view' : `cues[${cueOrder[over.cue] ?? over.cue}].view`;
  ctx.add(
    path,
    `at bar ${over.bar} beat ${over.beat} the audience state would be ${kb(over.bytes)} as a snapshot, over the ${kb(MAX_SNAPSHOT_BYTES)} limit (MAX_SNAPSHOT_BYTES): the edge refuses bigger frames and remote viewers would freeze; remove view data with null when it is no longer shown, or keep it smaller`,
  );
}
