// A simulated show for the record benchmark and the report's browser test (docs/how-to/record-and-replay.md#the-performance-record)
// : the real show (engine, state stream, hub) and the real recorder on a
// simulated clock, the demo score played over and over, an operator's tempo change, seek or pause
// every few minutes, a sample every 5 s.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createShow,
  createMetrics,
  createLog,
  loadScoreFile,
  createPartPages,
  createTransportLog,
  startRecorder,
} from '../../local-server/index.js';
import { createFakeClock } from '../../test/support/fake-clock.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Play `hours` of the demo score on a simulated clock into a new record in `root`.
 * @param {string} root
 * @param {number} hours
 * @returns {Promise<{ dir: string, rawEnvelopeBytes: number, syncs: number }>}
 */
export async function simulateShow(root, hours) {
  const loaded = await loadScoreFile(path.join(ROOT, 'scores/demo.score.json'));
  if (!loaded.ok) throw new Error('the demo score does not load');
  const clock = createFakeClock(Date.now());
  const metrics = createMetrics();
  const log = createLog();
  const show = createShow({
    loaded: { score: loaded.score, dir: loaded.dir, path: loaded.file },
    now: clock.now,
    metrics,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
  });
  let rawEnvelopeBytes = 0;
  show.events.on('envelope', (json) => (rawEnvelopeBytes += Buffer.byteLength(json)));
  const recorder = await startRecorder({
    root,
    show,
    now: clock.now,
    metrics,
    log,
    probe: null,
    probeClock: clock.now,
    sampleMs: 2 ** 30,
    edge: { status: () => ({ enabled: false }) },
    votes: { status: () => null },
    partPages: createPartPages({ now: clock.now }),
  });
  const operator = createTransportLog(log, show.engine, 'console');
  show.engine.play();
  operator.transport('play');
  const seconds = Math.round(hours * 3600);
  for (let s = 1; s <= seconds; s += 1) {
    clock.advance(1000);
    const { transport } = show.engine.status();
    if (transport === 'stopped') {
      // the end of the piece: again from the top
      show.engine.play();
      operator.transport('play');
    }
    if (s % 600 === 0) {
      const bpm = [null, 84, 96, 108][(s / 600) % 4];
      show.engine.setTempo(bpm);
      operator.tempo(bpm);
    }
    if (s % 1200 === 300) {
      show.engine.seek(9, 1);
      operator.transport('seek to bar 9 beat 1');
    }
    if (s % 1800 === 900) {
      show.engine.pause();
      operator.transport('pause');
    }
    if (s % 1800 === 930) {
      show.engine.play();
      operator.transport('play');
    }
    if (s % 5 === 0) await recorder.sample();
  }
  await recorder.close();
  show.close();
  return { dir: recorder.dir, rawEnvelopeBytes, syncs: recorder.syncs() };
}
