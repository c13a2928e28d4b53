// What the performance record writes every few seconds (docs/how-to/record-and-replay.md#the-performance-record):
// the log's warnings and errors since the last look, then a sample of the audience and sync
// figures (record-sampler.js). One sample at a time: a slow one is never overlapped.

import { createLogCursor } from '../console/log-cursor.js';
import { createRecordSampler } from './record-sampler.js';

/**
 * Start sampling every `sampleMs`; `tick` takes a sample now, `stop` ends the timer.
 * @param {object} options
 * @param {Parameters<typeof createRecordSampler>[0]} options.figures what the sampler reads
 * @param {import('../logs/log.js').Log} options.log
 * @param {(entry: Record<string, unknown>) => void} options.write
 * @param {(err: Error) => void} options.onError
 * @param {number} options.sampleMs
 */
export function recordSamples({ figures, log, write, onError, sampleMs }) {
  // The same cursor as the console's log view: the same text, secrets hidden by the log (log.js).
  const problems = createLogCursor({ log });
  problems.fresh(); // what happened before this record opened is not the show's
  const sample = createRecordSampler(figures);
  let sampling = false;
  const tick = async () => {
    if (sampling) return;
    sampling = true;
    try {
      for (const e of problems.fresh()) if (e.level !== 'info') write({ k: 'log', level: e.level, msg: e.msg, wall: e.t });
      write({ k: 'sample', ...(await sample()) });
    } catch (err) {
      onError(/** @type {Error} */ (err));
    } finally {
      sampling = false;
    }
  };
  const timer = setInterval(tick, sampleMs);
  timer.unref();
  return { tick, stop: () => clearInterval(timer) };
}
