// A performance recorder on a test show server (test/support/show.js): its parts, no latency
// probe, no timed samples (the test takes them), and whatever else the test sets.
import { startRecorder } from '../../local-server/src/record/recorder.js';

/**
 * @param {any} server a started show server
 * @param {string} root the records folder
 * @param {Record<string, unknown>} [more] other recorder options (syncMs, fsync, …)
 */
export function recorderOf(server, root, more = {}) {
  return startRecorder({
    root,
    show: server.show,
    now: Date.now,
    metrics: server.metrics,
    edge: server.edge,
    votes: server.votes,
    partPages: { list: () => [] },
    probe: null,
    probeClock: Date.now,
    log: server.log,
    sampleMs: 60_000,
    ...more,
  });
}
