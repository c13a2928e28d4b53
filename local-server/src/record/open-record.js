// Start the performance record of a show server (docs/how-to/record-and-replay.md#the-performance-record), with the
// console's latency probe it samples; a folder that cannot be written leaves the show unrecorded,
// never stopped. After a crash, the interrupted show's record goes on.

import { startRecorder } from './recorder.js';
import { createLatencyProbe, clock as probeClock } from '../console/latency-probe.js';

/**
 * @param {object} options
 * @param {string} options.root the records folder
 * @param {unknown} options.continueId the resumed show's record, or null
 * @param {() => number} options.audiencePort the audience listener's port (the probe connects to it)
 * @param {string} options.probeKey the probe's key (not counted as a viewer)
 * @param {import('../show/show.js').Show} options.show
 * @param {() => number} options.now
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {{ status: () => any }} options.edge
 * @param {{ status: () => any }} options.votes
 * @param {{ list: () => any[] }} options.partPages
 * @param {import('../logs/log.js').Log} options.log
 * @returns {Promise<Awaited<ReturnType<typeof startRecorder>> | null>} null when the show goes on unrecorded
 */
export async function openRecord({ root, continueId, audiencePort, probeKey, show, now, metrics, edge, votes, partPages, log }) {
  try {
    const probe = createLatencyProbe({ port: audiencePort, key: probeKey });
    return await startRecorder({ root, continueId, show, now, metrics, edge, votes, partPages, probe, probeClock, log });
  } catch (err) {
    log.warn(`cannot record this show in ${root}: ${err.message}; the show goes on unrecorded`);
    return null;
  }
}
