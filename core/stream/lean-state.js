// The lean audience state (docs/reference/audience-protocol.md#endpoints): the full state without what a viewer can
// compute itself while the show plays — the per-beat `position` and `tempo` (from `segment`) and
// the per-cue `view`/`audio` changes (from `ahead`). Its `view` is the view when the current
// ahead window began, so it changes once per chunk, not once per cue. Pure and runtime-free: the
// server derives it from every full state in order, and a viewer or an edge can do the same.
// leanSteps splits an operator's action from the look-ahead it brings, so the action reaches
// every phone in a small update of its own and the big `ahead` chunks follow.

import { isPlainObject, jsonEqual } from '#core/protocol/merge-patch.js';

/**
 * How long the look-ahead of an operator's action waits after the action itself on a lean stream,
 * unless the next update comes first (docs/reference/audience-protocol.md#the-action-first-the-look-ahead-after), at the
 * venue (local-server/src/show/show-streams.js) and at the edge (edge-worker/src/show/lean-feed.js): longer
 * than the action takes to reach 5,000 phones (≈ 100–170 ms on the operator bench), shorter than a
 * beat at any usual tempo. At the venue the next beat's update flushes it anyway, and that update
 * is published `lookaheadMs` before its beat sounds, so every cue of the look-ahead reaches a phone
 * at least as early as a beat does.
 */
export const LOOK_AHEAD_DELAY_MS = 250;

/** Suffix that gives the lean stream its own epoch id, so no client ever mixes the two seq spaces. */
export const LEAN_EPOCH_SUFFIX = '~lean';

/** The lowest key of an `ahead` object (the beat its window starts at), or null. */
function windowStart(ahead) {
  if (!isPlainObject(ahead)) return null;
  let min = null;
  for (const key of Object.keys(ahead)) {
    const n = Number(key);
    if (Number.isFinite(n) && (min === null || n < min)) min = n;
  }
  return min;
}

/**
 * The lean state following `previous` (the lean state derived from the preceding full state, or
 * null) for the full state `full`. Deriving from a lean state returns an equal lean state.
 * @param {Record<string, unknown> | null} previous
 * @param {Record<string, unknown>} full
 * @returns {Record<string, unknown>}
 */
export function deriveLeanState(previous, full) {
  const lean = { ...full };
  delete lean.audio;
  const flywheel = full.transport === 'playing' && isPlainObject(full.segment) && isPlainObject(full.ahead);
  if (!flywheel) return lean;
  delete lean.position;
  delete lean.tempo;
  // Keep the view of the window's start until the window moves (or the show re-anchors).
  const sameWindow = previous !== null && previous.transport === 'playing' && windowStart(previous.ahead) === windowStart(full.ahead);
  if (sameWindow && previous.view !== undefined) lean.view = previous.view;
  return lean;
}

/**
 * Keys of the lean state that change while the show simply plays (the window moves on): anything
 * else changing (`transport`, `segment`, `vote`, `section`, `tempoPercent`, `rehearsal`, …) is an
 * operator's action or an event of the show that a phone should see at once.
 */
const WINDOW_KEYS = new Set(['ahead', 'view', 'position', 'tempo']);

/**
 * Whether a key outside WINDOW_KEYS differs between two lean states. Deep compare only of what
 * differs by reference (the engine keeps `score` and `segment` objects between beats).
 * @param {Record<string, unknown>} previous
 * @param {Record<string, unknown>} next
 */
function actionChanged(previous, next) {
  for (const key of Object.keys(next)) if (!WINDOW_KEYS.has(key) && !jsonEqual(previous[key], next[key])) return true;
  for (const key of Object.keys(previous)) if (!WINDOW_KEYS.has(key) && !Object.hasOwn(next, key)) return true;
  return false;
}

/**
 * The lean states to publish, in order, for the full state `full` (docs/explanation/clock-sync.md#the-flywheel: the
 * action first, the look-ahead after). Usually one: `deriveLeanState(previous, full)`. Two when
 * that lean state brings new `ahead` chunks together with an operator's action (a key outside
 * `ahead`/`view`/`position`/`tempo` changed: a play, seek, tempo change, vote opening, …): first the
 * action without the look-ahead — the lean state of `full` minus `ahead`, a state the show could
 * really have (no flywheel, so it carries `position`, `tempo` and the current `view`, and the old
 * `ahead` is removed, so no phone combines the new `segment` with stale cues) — then the one-step
 * lean state (`ahead` back, `position` and `tempo` gone again). The window moving on while the show
 * plays (only `ahead` and `view` change) stays one update, and so does an action that removes
 * `ahead` (a pause, a stop). With `previous` null (a reset: the stream starts again with a
 * snapshot) there is nothing to split: one state. The last state returned is always the one-step
 * lean state, the `previous` of the next call.
 * @param {Record<string, unknown> | null} previous the last lean state published, or null
 * @param {Record<string, unknown>} full
 * @returns {Record<string, unknown>[]} one or two lean states, in publishing order
 */
export function leanSteps(previous, full) {
  const lean = deriveLeanState(previous, full);
  if (previous === null || !isPlainObject(lean.ahead) || !actionChanged(previous, lean)) return [lean];
  // Checked last: with the engine's chunks shared by reference this compare is cheap, and it only
  // runs when an action changed something.
  if (jsonEqual(previous.ahead, lean.ahead)) return [lean];
  return [withoutLookAhead(full), lean];
}

/**
 * The lean state of `full` without its look-ahead: the state the show would have without a
 * flywheel (`ahead` removed; `position`, `tempo` and the current `view` in). The first of
 * leanSteps' two, and what goes out while that look-ahead waits (keepsBeat).
 * @param {Record<string, unknown>} full
 * @returns {Record<string, unknown>}
 */
export function withoutLookAhead(full) {
  const withoutAhead = { ...full };
  delete withoutAhead.ahead;
  return deriveLeanState(null, withoutAhead);
}

/**
 * Whether the full state `next` keeps the beat and the cues of `previous` (`transport`,
 * `position` and `ahead` unchanged): the show republishing what it keeps beside the engine — a
 * vote's tally, a vote dropped by a seek, a reaction's level. An action's look-ahead still waiting
 * keeps waiting through such an update, which goes out withoutLookAhead (docs/reference/audience-protocol.md#the-action-first-the-look-ahead-after)
 * : no cue falls due before the next beat, and the next beat's update
 * sends the look-ahead first.
 * @param {Record<string, unknown>} previous
 * @param {Record<string, unknown>} next
 */
export function keepsBeat(previous, next) {
  return previous.transport === next.transport && jsonEqual(previous.position, next.position) && jsonEqual(previous.ahead, next.ahead);
}
