// How long a virtual viewer stays. Viewers "stay for the test": whenever one joins during the
// ramp, all of them leave together at first arrival + ramp + hold, so the last `hold` seconds
// have the whole audience connected. Scenario variables (YAML `variables` or --variables):
//   ramp  seconds over which viewers join (run.js sets it from the phase it generates)
//   hold  seconds everybody stays once the ramp is over
//   measure  "join" (default: every push after a viewer's own join) or "full-house" (only
//            pushes created once the ramp is over, like ZScore's WS test with every client in)

/** First arrival in this worker thread: the common clock every viewer's stay is planned on. */
let origin = null;

/**
 * @param {Record<string, unknown>} vars a VU's context.vars
 * @param {number} [now]
 * @returns {{ leaveAt: number, measureFrom: number, stayMs: number }}
 */
export function planStay(vars, now = Date.now()) {
  origin ??= now;
  const ramp = seconds(vars.ramp, 0);
  const hold = seconds(vars.hold, 30);
  const leaveAt = Math.max(origin + (ramp + hold) * 1000, now + 1000);
  const measureFrom = vars.measure === 'full-house' ? origin + ramp * 1000 : -Infinity;
  const stayMs = Math.max(0, Math.round(leaveAt - now));
  // `think` takes a duration string; a bare number would mean seconds and "0.5" ~1 ms.
  vars.stayFor = `${stayMs}ms`;
  return { leaveAt, measureFrom, stayMs };
}

/** Forget the origin (tests that plan several runs in one process). */
export function resetStayOrigin() {
  origin = null;
}

/**
 * @param {unknown} value
 * @param {number} fallback
 */
export function seconds(value, fallback) {
  const n = Number(value);
  return value === undefined || value === '' || !Number.isFinite(n) || n < 0 ? fallback : n;
}
