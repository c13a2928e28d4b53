// Page-clock time → AudioContext time, for sounds started on the audio clock (sample-accurate)
// at a server time: the audience's cues (audio.js) and the part page's click (part/click.js), and
// the AudioContext both open inside a user gesture.
//
// The context's output timestamp (getOutputTimestamp) is the best mapping where it is right: it
// includes the output latency. WebKit's is not (docs/explanation/browser-differences.md#what-differs):
// its performanceTime runs ahead of performance.now() by the context's age (2254 vs 1223 ms at
// 1.03 s), so every cue would compute as seconds late and be skipped. A timestamp is therefore
// only used while it is plausible: not in the future, not long past, and advancing at the same
// rate as the context's own clock; once caught out, a context is mapped from currentTime for good.

/** How far ahead of performance.now() an output timestamp may be (clock granularity), ms. */
const FUTURE_TOLERANCE_MS = 50;
/** How far behind: no output path is a second late (Bluetooth is ~0.3 s), ms. */
const PAST_TOLERANCE_MS = 1000;
/** Context seconds between two timestamps before their rate is judged. */
const RATE_SPAN_S = 0.5;
/** Performance ms per context s allowed for a timestamp (1000 ± 5 %). */
const RATE_RANGE = [950, 1050];

/** Per context: the first plausible timestamp, and the verdict once the rate has been judged. */
const checks = new WeakMap();

/**
 * Whether an output timestamp of `ctx` can be trusted now (see the comment at the top).
 * @param {AudioContext} ctx
 * @param {AudioTimestamp} ts
 * @param {number} nowMs performance.now()
 */
function plausible(ctx, ts, nowMs) {
  let check = checks.get(ctx);
  if (!check) checks.set(ctx, (check = { first: null, verdict: 'unknown' }));
  if (check.verdict !== 'unknown') return check.verdict === 'trusted';
  const ahead = ts.performanceTime - nowMs;
  if (ahead > FUTURE_TOLERANCE_MS || ahead < -PAST_TOLERANCE_MS || ts.contextTime > ctx.currentTime + 0.1) {
    check.verdict = 'distrusted';
    return false;
  }
  if (!check.first) check.first = { contextTime: ts.contextTime, performanceTime: ts.performanceTime };
  const span = ts.contextTime - check.first.contextTime;
  if (span >= RATE_SPAN_S) {
    const rate = (ts.performanceTime - check.first.performanceTime) / span;
    check.verdict = rate >= RATE_RANGE[0] && rate <= RATE_RANGE[1] ? 'trusted' : 'distrusted';
  }
  return check.verdict !== 'distrusted';
}

/**
 * Which mapping contextTime uses for `ctx` at the moment: the output timestamp, or currentTime
 * minus the reported latency (no timestamp, or an implausible one). For the page inspector and tests.
 * @param {AudioContext} ctx
 * @returns {'output-timestamp' | 'current-time'}
 */
export function clockSource(ctx) {
  const ts = typeof ctx.getOutputTimestamp === 'function' ? ctx.getOutputTimestamp() : null;
  return ts && ts.performanceTime > 0 && plausible(ctx, ts, performance.now()) ? 'output-timestamp' : 'current-time';
}

/**
 * The AudioContext time (s) at which a sound must start to be heard at page-clock time `localMs`,
 * through the context's own output timestamp when the browser gives a plausible one (it includes
 * the output latency), else from currentTime minus the reported latency.
 * @param {AudioContext} ctx
 * @param {number} localMs page clock (performance.timeOrigin + performance.now())
 * @returns {number}
 */
export function contextTime(ctx, localMs) {
  const perfMs = localMs - performance.timeOrigin;
  const nowMs = performance.now();
  const ts = typeof ctx.getOutputTimestamp === 'function' ? ctx.getOutputTimestamp() : null;
  if (ts && ts.performanceTime > 0 && plausible(ctx, ts, nowMs)) return ts.contextTime + (perfMs - ts.performanceTime) / 1000;
  return ctx.currentTime + (perfMs - nowMs) / 1000 - (ctx.outputLatency || ctx.baseLatency || 0);
}

/**
 * How long a tap waits for AudioContext.resume(): where it never settles (Firefox without an audio
 * device, a phone's audio focus held by a call) nothing may hang behind it (docs/explanation/browser-differences.md#what-differs)
 * the context keeps trying on its own and sounds start once it runs.
 */
export const RESUME_TIMEOUT_MS = 1500;

/**
 * Open (first call) and start an AudioContext; call inside a user gesture (a tap), the only
 * moment browsers allow sound to start. A silent buffer started in the gesture unlocks iOS.
 * Waits for resume() at most RESUME_TIMEOUT_MS.
 * @param {AudioContext | null} ctx the context from an earlier call, or null
 * @returns {Promise<AudioContext | null>} null where the browser has no Web Audio
 */
export async function unlockAudioContext(ctx) {
  if (!ctx) {
    const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctx) return null;
    ctx = /** @type {AudioContext} */ (new Ctx({ latencyHint: 'interactive' }));
    const silent = ctx.createBufferSource();
    silent.buffer = ctx.createBuffer(1, 1, 22050);
    silent.connect(ctx.destination);
    silent.start();
  }
  if (ctx.state !== 'running') {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(resolve, RESUME_TIMEOUT_MS);
    });
    await Promise.race([Promise.resolve(ctx.resume()).catch(() => {}), timeout]);
    clearTimeout(timer);
  }
  return ctx;
}
