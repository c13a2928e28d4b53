// The server's clock as seen from this page. Every live event carries `s` (server ms when it
// was sent); s − receive time is the offset minus the delivery delay, so the largest recent
// value is the best estimate. Beats are then shown when they sound (`at`), not when they arrive.

const WINDOW = 40;

export function createServerClock() {
  /** @type {number[]} */
  const samples = [];
  let offset = 0;
  return {
    /** @param {number | undefined} s */
    observe(s) {
      if (typeof s !== 'number') return;
      samples.push(s - Date.now());
      if (samples.length > WINDOW) samples.shift();
      offset = Math.max(...samples);
    },
    /** Server time now (ms). */
    now: () => Date.now() + offset,
    /** Local delay until a server time. */
    until: (serverTime) => serverTime - (Date.now() + offset),
  };
}
