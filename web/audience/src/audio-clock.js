// Page-clock time → AudioContext time, for sounds started on the audio clock (sample-accurate)
// at a server time: the audience's cues (audio.js) and the part page's click (part/click.js), and
// the AudioContext both open inside a user gesture.

/**
 * The AudioContext time (s) at which a sound must start to be heard at page-clock time `localMs`,
 * through the context's own output timestamp when the browser gives one (it includes the output
 * latency), else from currentTime minus the reported latency.
 * @param {AudioContext} ctx
 * @param {number} localMs page clock (performance.timeOrigin + performance.now())
 * @returns {number}
 */
export function contextTime(ctx, localMs) {
  const perfMs = localMs - performance.timeOrigin;
  const ts = typeof ctx.getOutputTimestamp === 'function' ? ctx.getOutputTimestamp() : null;
  if (ts && ts.performanceTime > 0) return ts.contextTime + (perfMs - ts.performanceTime) / 1000;
  return ctx.currentTime + (perfMs - performance.now()) / 1000 - (ctx.outputLatency || ctx.baseLatency || 0);
}

/**
 * Open (first call) and start an AudioContext; call inside a user gesture (a tap), the only
 * moment browsers allow sound to start. A silent buffer started in the gesture unlocks iOS.
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
  if (ctx.state !== 'running') await ctx.resume().catch(() => {});
  return ctx;
}
