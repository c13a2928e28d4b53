// Turn --users / --ramp / --duration into Artillery phases and scenario variables.

/**
 * Phases for `users` arriving over about `ramp` seconds, exactly `users` in total: a whole
 * arrival rate (Artillery splits it between its worker threads) and maxVusers to trim the last
 * second's overshoot. Viewers stay to the end, so "concurrent" and "total" are the same number.
 * @param {number} users
 * @param {number} ramp seconds
 * @returns {{ phases: object[], ramp: number }} ramp: the real join window in seconds
 */
export function rampPhases(users, ramp) {
  const rate = Math.max(1, Math.ceil(users / Math.max(1, ramp)));
  const duration = Math.max(1, Math.ceil(users / rate));
  return { phases: [{ name: `${users} users join`, duration, arrivalRate: rate, maxVusers: users }], ramp: duration };
}

/**
 * Every phone created up front (200 a second: always ahead of the ~6 a second the bursts
 * release); each then waits for its place in the burst schedule. Sub-millisecond arrival
 * intervals make Artillery create one too many, hence the spread and the cap.
 * @param {number} users
 */
export function burstPhases(users) {
  return {
    phases: [
      { name: `${users} phones arrive in bursts`, duration: Math.max(1, Math.ceil(users / 200)), arrivalCount: users, maxVusers: users },
    ],
  };
}

/**
 * What run.js passes to `artillery run` for one scenario (or one zscore-profile part).
 * @param {{ kind: import('./catalog.js').LoadKind, users: number, ramp: number, hold: number }} plan
 * @returns {{ overrides: object, variables: Record<string, string | number> }}
 */
export function artilleryPlan({ kind, users, ramp, hold }) {
  if (kind === 'pageload') return { overrides: { config: burstPhases(users) }, variables: {} };
  const { phases, ramp: window } = rampPhases(users, ramp);
  const variables = kind === 'viewers' ? { ramp: window, hold } : { ramp: window };
  return { overrides: { config: { phases } }, variables };
}

/** Rough length of a run in seconds, for the "this will take about" line. */
export function expectedSeconds({ kind, users, ramp, hold }) {
  if (kind === 'pageload') return Math.ceil(users / 6) + 5; // ≈ 3 phones per burst, 0.5 s apart
  if (kind === 'viewers') return rampPhases(users, ramp).ramp + hold;
  return rampPhases(users, ramp).ramp + 12; // page + 23 polls at 500 ms
}
