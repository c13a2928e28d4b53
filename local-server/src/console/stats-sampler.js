// The console's once-a-second numbers (docs/README.md, the console's audience card): sampled only
// while a console looks. The first look starts the latency probe and the sampler; a minute with
// no console following the live feed and no snapshot asked for stops the sampler again.

const SAMPLE_MS = 1000;
const IDLE_MS = 60_000;

/**
 * @param {object} options
 * @param {{ start: () => void }} options.probe the latency probe (started at the first look)
 * @param {() => number} options.watchers how many consoles follow the live feed
 * @param {() => Promise<void>} options.sample take one sample and send it to the consoles
 * @param {{ warn: (msg: string) => void }} options.log
 */
export function createStatsSampler({ probe, watchers, sample, log }) {
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;
  let lastLook = 0;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  const tick = async () => {
    if (watchers() === 0 && Date.now() - lastLook > IDLE_MS) {
      stop();
      return;
    }
    try {
      await sample();
    } catch (err) {
      log.warn(`console stats: ${/** @type {Error} */ (err).message}`);
    }
  };
  return {
    /** A console looked (a snapshot was asked for): sample from now on. */
    looked() {
      lastLook = Date.now();
      probe.start();
      if (timer) return;
      timer = setInterval(tick, SAMPLE_MS);
      timer.unref();
    },
    /** Stop sampling (the server closes). */
    close: stop,
  };
}
