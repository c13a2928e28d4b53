// The switchable mirror to the edge worker: the console can turn it on and off at run time
// (URL + token), `--edge` turns it on at start. The uplink itself (connection, backoff,
// catch-up) lives in ./edge/uplink.js.

/**
 * @param {{ stream: any, log: import('./log.js').Log, metrics: import('./metrics.js').Metrics }} options
 */
export function createEdgeMirror({ stream, log, metrics }) {
  /** @type {any} */
  let uplink = null;
  let url = null;
  const gauge = setInterval(() => {
    const s = uplink?.status();
    metrics.edgeConnected.set(s?.connected ? 1 : 0);
    metrics.edgeLag.set(s?.lag ?? 0);
  }, 1000);
  gauge.unref();

  return {
    /**
     * Start mirroring to `edgeUrl` (replacing any previous link).
     * @param {string} edgeUrl
     * @param {string} token
     */
    async enable(edgeUrl, token) {
      this.disable();
      const { createEdgeUplink } = await import('./edge/uplink.js');
      url = edgeUrl.replace(/\/+$/, '');
      uplink = createEdgeUplink({ url, token, stream, log });
      log.info(`edge mirror on: ${url}`);
    },
    disable() {
      if (!uplink) return;
      uplink.close();
      uplink = null;
      log.info(`edge mirror off: ${url}`);
      url = null;
    },
    /** @param {string} json */
    publish(json) {
      uplink?.publish(json);
    },
    /** Public URL viewers are sent to on overflow (null when the mirror is off). */
    publicUrl: () => url,
    status: () => (uplink ? { enabled: true, ...uplink.status() } : { enabled: false }),
    close() {
      clearInterval(gauge);
      this.disable();
    },
  };
}
