// A count-in before the show plays (docs/how-to/rehearse.md#rehearsing): N clicks at the tempo of the beat it
// leads into, the first one lookahead from now, the show's first beat one beat after the last
// click. It is part of the state while it runs (`countIn`), so every part page shows and clicks it
// and every OSC target gets it (`/tutti/countin n of`) on the same clock as the beats. Pure and
// runtime-free: the engine schedules it, the part page and the audience page read it.

/** The most bars a count-in may have (the control API and OSC-in refuse more). */
export const MAX_COUNT_IN_BARS = 8;
/** The most clicks (the console's count-in counts beats: 1–16). */
export const MAX_COUNT_IN_BEATS = 32;

/**
 * @typedef {object} CountIn the state's `countIn`
 * @property {{ bar: number, beat: number, index: number }} from the beat the show starts on
 * @property {number} beats how many clicks
 * @property {number} perBar clicks per bar (the meter of the bar it leads into)
 * @property {number} beatMs the length of one click (ms)
 * @property {number} at server ms when click 1 sounds
 * @property {boolean} audience whether the audience page shows "starting in …"
 */

/**
 * The count-in leading into beat `from`.
 * @param {object} options
 * @param {{ bar: number, beat: number, beats: number, index: number }} options.from the start beat and its bar's meter
 * @param {number} options.beats clicks (≥ 1)
 * @param {number} options.bpm the tempo the show starts at (the operator's override applied)
 * @param {number} options.at when click 1 sounds (server ms)
 * @param {boolean} [options.audience]
 * @returns {CountIn}
 */
export function planCountIn({ from, beats, bpm, at, audience = false }) {
  return {
    from: { bar: from.bar, beat: from.beat, index: from.index },
    beats,
    perBar: from.beats,
    beatMs: Math.round((60000 / bpm) * 1000) / 1000,
    at,
    audience,
  };
}

/**
 * When click `n` (1-based) sounds.
 * @param {CountIn} countIn
 * @param {number} n
 */
export const clickTime = (countIn, n) => countIn.at + (n - 1) * countIn.beatMs;

/**
 * When the show's first beat sounds: one beat after the last click.
 * @param {CountIn} countIn
 */
export const countInEnd = (countIn) => countIn.at + countIn.beats * countIn.beatMs;

/**
 * The click sounding at `serverMs`, or null before the first or once the show has started: its
 * number, and what a musician counts — the bars left ("2 … 1") and the beat in that bar.
 * @param {CountIn} countIn
 * @param {number} serverMs
 * @returns {{ n: number, of: number, at: number, barsLeft: number, beatInBar: number, nextAt: number } | null}
 */
export function countInAt(countIn, serverMs) {
  if (serverMs < countIn.at || serverMs >= countInEnd(countIn)) return null;
  const n = Math.min(countIn.beats, Math.floor((serverMs - countIn.at) / countIn.beatMs + 1e-9) + 1);
  return {
    n,
    of: countIn.beats,
    at: clickTime(countIn, n),
    barsLeft: Math.ceil((countIn.beats - n + 1) / countIn.perBar),
    beatInBar: ((n - 1) % countIn.perBar) + 1,
    nextAt: clickTime(countIn, n + 1),
  };
}

/**
 * Is a value a usable count-in (from the network: never trust its shape)?
 * @param {unknown} value
 * @returns {value is CountIn}
 */
export function isCountIn(value) {
  if (typeof value !== 'object' || value === null) return false;
  const c = /** @type {Record<string, any>} */ (value);
  const finite = (x) => typeof x === 'number' && Number.isFinite(x);
  return (
    finite(c.at) &&
    finite(c.beatMs) &&
    c.beatMs > 0 &&
    Number.isInteger(c.beats) &&
    c.beats >= 1 &&
    c.beats <= MAX_COUNT_IN_BEATS &&
    Number.isInteger(c.perBar) &&
    c.perBar >= 1 &&
    typeof c.from === 'object' &&
    c.from !== null &&
    finite(c.from.index)
  );
}

/**
 * Play a count-in on the engine's clock: each click is handed to `onClick` one lookahead before it
 * sounds (like a beat), and `onDone` is called one lookahead before the show's first beat sounds,
 * so the engine publishes that beat at the same distance ahead as every other.
 * @param {object} options
 * @param {CountIn} options.countIn
 * @param {() => number} options.now
 * @param {(fn: () => void, ms: number) => unknown} options.setTimer
 * @param {(handle: unknown) => void} options.clearTimer
 * @param {number} options.lookaheadMs
 * @param {(click: { n: number, of: number, at: number }) => void} options.onClick
 * @param {(firstBeatAt: number) => void} options.onDone
 * @returns {{ cancel: () => void }}
 */
export function runCountIn({ countIn, now, setTimer, clearTimer, lookaheadMs, onClick, onDone }) {
  let next = 1;
  let timer = null;
  const end = countInEnd(countIn);
  function tick() {
    timer = null;
    const horizon = now() + lookaheadMs;
    while (next <= countIn.beats && clickTime(countIn, next) <= horizon) {
      onClick({ n: next, of: countIn.beats, at: clickTime(countIn, next) });
      next += 1;
    }
    if (next > countIn.beats && end <= horizon) return onDone(end);
    const due = next <= countIn.beats ? clickTime(countIn, next) : end;
    timer = setTimer(tick, Math.max(0, due - lookaheadMs - now()));
  }
  tick();
  return {
    cancel() {
      if (timer !== null) clearTimer(timer);
      timer = null;
    },
  };
}

/**
 * Where the show stands after an action, in words for the log and the record's report. While a
 * count-in runs the show stands on its start beat with transport "stopped", which read as if the
 * show had stopped ("start from bar 5 … → stopped at bar 6 beat 1"): say it counts in, then plays.
 * @param {{ transport: string, bar: number, beat: number, countIn?: number | null }} after
 *   countIn: the clicks of a count-in running now (none, or 0, when there is none)
 * @returns {string}
 */
export function standingWords({ transport, bar, beat, countIn }) {
  if (countIn) return `counting in ${countIn} beat${countIn === 1 ? '' : 's'}, then playing from bar ${bar} beat ${beat}`;
  return `${transport} at bar ${bar} beat ${beat}`;
}
