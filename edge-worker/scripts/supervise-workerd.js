// `npm run edge:dev` keeps its workerd serving after a crash, as a supervisor would
// (docs/tutorials/first-edge-show.md#run-it-locally-no-cloudflare-account-needed): each crash is named in the terminal with its exit code
// or signal, workerd comes back on the same port with the same Durable Object storage (the show's
// state, votes and media survive; viewers and the venue reconnect by themselves), and a crash
// loop is bounded: more than `maxRestarts` crashes within `windowMs` and it gives up.
//
// Who restarts: Miniflare itself starts workerd again at once after a workerd that was serving
// ends (it cannot be told to wait). When that does not bring it back (workerd also dies while
// starting, or the port is taken meanwhile, and Miniflare stops trying), this supervisor starts
// it again through the edit-reload path (`runtime.reload()`), after 1 s, 2 s, 4 s, 8 s, … .

import { describeExit } from './workerd-exits.js';

/**
 * @typedef {object} SupervisedRuntime
 * @property {URL} url where the worker listens
 * @property {{ ready: Promise<URL> }} miniflare
 * @property {() => Promise<void>} reload restart workerd on the same port and storage
 * @property {(listener: (exit: import('./workerd-exits.js').WorkerdExit) => void) => void} onCrash
 */

/**
 * Supervise the direct runtime's workerd (direct-runtime.js).
 * @param {object} options
 * @param {SupervisedRuntime} options.runtime
 * @param {(line: string) => void} options.log
 * @param {(reason: string) => void} options.giveUp called once, after the line saying why: stop and exit non-zero
 * @param {number} [options.maxRestarts] restarts allowed within `windowMs` (default 5)
 * @param {number} [options.windowMs] default 60 s
 * @param {number[]} [options.retryDelaysMs] waits before this supervisor's own restarts (the last one repeats)
 * @param {number} [options.probeTimeoutMs] how long /healthz may take to answer after a restart
 */
export function superviseWorkerd({
  runtime,
  log,
  giveUp,
  maxRestarts = 5,
  windowMs = 60_000,
  retryDelaysMs = [1000, 2000, 4000, 8000],
  probeTimeoutMs = 10_000,
}) {
  const where = `:${runtime.url.port}`;
  const windowText = `within ${Math.round(windowMs / 1000)} s`;
  /** @type {number[]} */
  const crashTimes = [];
  let gaveUp = false;

  /** Count one crash; false (and give up) once the bound is passed. */
  const countCrash = (what) => {
    const now = Date.now();
    crashTimes.push(now);
    while (crashTimes.length > 0 && crashTimes[0] <= now - windowMs) crashTimes.shift();
    if (crashTimes.length > maxRestarts) {
      gaveUp = true;
      const reason = `workerd ${what}: ${crashTimes.length} crashes ${windowText}, giving up (the storage is kept; fix the cause and run it again)`;
      log(`edge:dev: ${reason}`);
      giveUp(reason);
      return false;
    }
    log(
      `edge:dev: workerd ${what}; starting it again on ${where} with the same storage (restart ${crashTimes.length} of ${maxRestarts} ${windowText})`,
    );
    return true;
  };

  /** null when the worker answers /healthz again, else what is wrong. */
  const problem = async () => {
    try {
      await runtime.miniflare.ready;
    } catch (err) {
      return err instanceof Error ? err.message.split('\n')[0] : String(err);
    }
    try {
      const res = await fetch(new URL('/healthz', runtime.url), { signal: AbortSignal.timeout(probeTimeoutMs) });
      await res.body?.cancel();
      return res.ok ? null : `/healthz answered ${res.status}`;
    } catch (err) {
      return `/healthz did not answer: ${err instanceof Error ? err.message : err}`;
    }
  };

  // One recovery loop at a time; a crash while it runs makes it check again.
  let recovering = false;
  let unchecked = false;
  const recover = async () => {
    recovering = true;
    let attempt = 0;
    try {
      while (unchecked && !gaveUp) {
        unchecked = false;
        // Let Miniflare queue its own restart first (it reacts to the same exit, after us).
        await new Promise((resolve) => setImmediate(resolve));
        const wrong = await problem();
        if (gaveUp) return;
        if (!wrong) {
          if (!unchecked) log(`edge:dev: workerd is serving again on ${where}`);
          attempt = 0;
          continue;
        }
        const delayMs = retryDelaysMs[Math.min(attempt, retryDelaysMs.length - 1)];
        attempt += 1;
        log(`edge:dev: workerd did not come back (${wrong}); trying again in ${delayMs / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (gaveUp) return;
        try {
          await runtime.reload();
        } catch (err) {
          if (!countCrash(`failed to start (${err instanceof Error ? err.message.split('\n')[0] : err})`)) return;
        }
        unchecked = true;
      }
    } finally {
      recovering = false;
    }
  };

  runtime.onCrash((exit) => {
    if (gaveUp) return;
    if (!countCrash(`(pid ${exit.pid}) ${describeExit(exit)}`)) return;
    unchecked = true;
    if (!recovering) void recover();
  });
}
