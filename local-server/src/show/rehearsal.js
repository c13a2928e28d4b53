// Rehearsal commands (docs/how-to/rehearse.md#rehearsing), one reading for the control API, OSC-in and the
// console: start from a section, printed bar or bar with a count-in of N bars, loop a range N
// times or until released, a rehearsal tempo in percent. Places are read by core/engine/start-point.js;
// the engine does the rest (count-in, loop, tempo). Bad input is an EngineError with a code and a
// sentence, never a half-done change.

import { EngineError } from '#core/engine/engine.js';
import { MAX_COUNT_IN_BARS } from '#core/engine/count-in.js';
import { MAX_LOOP_PASSES } from '#core/engine/loop.js';
import { resolveStart, resolveEnd } from '#core/engine/start-point.js';

/**
 * @typedef {import('#core/engine/start-point.js').PlaceSpec} PlaceSpec
 * @typedef {{ from: PlaceSpec, countInBars?: number, audience?: boolean }} StartCommand
 * @typedef {{ from: PlaceSpec, to?: PlaceSpec, passes?: number | null, start?: boolean, countInBars?: number, audience?: boolean }} LoopCommand
 */

const KINDS = ['section', 'printedBar', 'bar'];
const isCount = (/** @type {unknown} */ n) => Number.isInteger(n) && /** @type {number} */ (n) >= 1;

/**
 * Read a place from a request or an OSC message (never trusted): exactly one of `section` (a
 * mark), `printedBar` or `bar`, and optionally `beat` (and `pass` for a printed bar).
 * @param {unknown} value
 * @param {string} name what the place is called in the message ("from", "to")
 * @returns {PlaceSpec}
 */
export function readPlace(value, name) {
  const bad = (why) => new EngineError('BAD_PLACE', `"${name}" ${why}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw bad('must be an object: {"section":"C"}, {"printedBar":17,"beat":1} or {"bar":9,"beat":1}');
  const v = /** @type {Record<string, unknown>} */ (value);
  const kinds = KINDS.filter((k) => k in v);
  if (kinds.length !== 1) throw bad('needs exactly one of "section", "printedBar" or "bar"');
  const extra = Object.keys(v).filter((k) => !['section', 'printedBar', 'bar', 'beat', 'pass'].includes(k));
  if (extra.length) throw bad(`has unknown field(s): ${extra.join(', ')}`);
  if ('beat' in v && !isCount(v.beat)) throw bad('beat must be an integer from 1');
  if ('pass' in v && (!('printedBar' in v) || !isCount(v.pass))) throw bad('pass (an integer from 1) goes only with printedBar');
  if (kinds[0] === 'section') {
    if (typeof v.section !== 'string' || v.section.length === 0 || v.section.length > 40)
      throw bad('section must be a mark of 1–40 characters');
    if ('beat' in v) throw bad('a section starts on its own beat: no "beat" with "section"');
    return { section: v.section };
  }
  if (!isCount(v[kinds[0]])) throw bad(`${kinds[0]} must be an integer from 1`);
  return /** @type {PlaceSpec} */ ({ ...v });
}

/** "section C", "printed bar 17 beat 1", "bar 9 beat 1", for the log and the record. */
export function describePlace(/** @type {PlaceSpec} */ spec) {
  if ('section' in spec) return `section ${spec.section}`;
  const beat = spec.beat ? ` beat ${spec.beat}` : '';
  if ('printedBar' in spec) return `printed bar ${spec.printedBar}${spec.pass ? ` (pass ${spec.pass})` : ''}${beat}`;
  return `bar ${spec.bar}${beat}`;
}

/**
 * @param {{ engine: any }} show the running show (its engine)
 */
export function createRehearsal(show) {
  const engine = () => show.engine;

  /** @param {PlaceSpec} spec */
  function startOf(spec) {
    const place = resolveStart(engine().score(), engine().timeline(), spec);
    if ('error' in place) throw new EngineError(place.error, place.message);
    return place;
  }

  /** @param {number | undefined} bars */
  function checkCountIn(bars) {
    if (bars === undefined) return 0;
    if (!Number.isInteger(bars) || bars < 0 || bars > MAX_COUNT_IN_BARS) {
      throw new EngineError('BAD_COUNT_IN', `countInBars must be an integer from 0 to ${MAX_COUNT_IN_BARS}`);
    }
    return bars;
  }

  /** Start at beat `index` after `bars` bars of count-in in that bar's meter. */
  function startAt(index, bars, audience) {
    const perBar = engine().timeline().positionOf(index).beats;
    engine().startFrom(index, { countInBeats: bars * perBar, audience: Boolean(audience) });
  }

  return {
    /**
     * Start from a place, after an optional count-in.
     * @param {StartCommand} command
     * @returns {string} what was done, for the log
     */
    start({ from, countInBars, audience }) {
      const bars = checkCountIn(countInBars);
      const place = startOf(from);
      startAt(place.index, bars, audience);
      return `start from ${describePlace(from)}${bars ? ` after ${bars} bar${bars > 1 ? 's' : ''} of count-in` : ''}`;
    },
    /**
     * Loop a range (`to` included; without it, the range is the place `from` names: a section or
     * a bar) `passes` times or until released, and start from its beginning unless `start` is false.
     * @param {LoopCommand} command
     * @returns {string} what was done, for the log
     */
    loop({ from, to, passes = null, start = true, countInBars, audience }) {
      const bars = checkCountIn(countInBars);
      if (passes !== null && (!Number.isInteger(passes) || passes < 1 || passes > MAX_LOOP_PASSES)) {
        throw new EngineError('BAD_PASSES', `passes must be an integer from 1 to ${MAX_LOOP_PASSES}, or null (until released)`);
      }
      const first = startOf(from);
      const last = resolveEnd(engine().score(), engine().timeline(), to ?? from);
      if ('error' in last) throw new EngineError(last.error, last.message);
      if (last.end <= first.index)
        throw new EngineError('BAD_RANGE', `the loop's end (${describePlace(to ?? from)}) is not after its start`);
      engine().setLoop({ start: first.index, end: last.end, passes });
      if (start) startAt(first.index, bars, audience);
      const times = passes === null ? 'until released' : `${passes} time${passes > 1 ? 's' : ''}`;
      return `loop ${describePlace(from)}${to ? ` to ${describePlace(to)}` : ''} ${times}`;
    },
    /**
     * Leave the loop at the end of the pass being played.
     * @returns {boolean} whether a loop was set
     */
    release: () => engine().releaseLoop(),
    /**
     * A rehearsal tempo, in percent of the written tempo.
     * @param {number} percent
     */
    tempoPercent: (percent) => engine().setTempoPercent(percent),
  };
}
