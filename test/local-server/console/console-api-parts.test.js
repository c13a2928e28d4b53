// The parts the console's API is made of (local-server/src/console/): the score summary is built
// once per score (the timeline is not rebuilt on every snapshot) and the console's one transport
// projection reads the engine once, agreeing with the server's status. On a real show server.

import { fileURLToPath } from 'node:url';
import { startShowServer } from '../../../local-server/src/server.js';
import { loadScoreFile } from '../../../local-server/src/score/score-file.js';
import { scoreSummary } from '../../../local-server/src/console/score-summary.js';
import { transportStatus } from '../../../local-server/src/console/transport-status.js';

const score = (name) => fileURLToPath(new URL(`../../../scores/${name}`, import.meta.url));
let server;

beforeAll(async () => {
  server = await startShowServer({ scorePath: score('demo.score.json'), host: '127.0.0.1', port: 0, controlPort: 0, token: 'parts' });
});
afterAll(async () => {
  await server?.close();
});

test('a score is summarised once: the same score object gives the same summary, its path filled in per call', async () => {
  const loaded = await loadScoreFile(score('demo.score.json'));
  expect(loaded.ok).toBe(true);
  const first = scoreSummary(loaded.score, '/a/demo.score.json');
  const again = scoreSummary(loaded.score);
  // The timeline-derived parts are the very same objects: nothing was rebuilt.
  expect(again.sections).toBe(first.sections);
  expect(again.meter).toBe(first.meter);
  expect(first.path).toBe('/a/demo.score.json');
  expect(again.path).toBeNull();
  // `path` keeps its place among the keys (what the console and its tests read).
  expect(Object.keys(first).slice(0, 6)).toEqual(['id', 'title', 'composer', 'bars', 'path', 'totalBeats']);
  expect(first.durationMs).toBeGreaterThan(0);
  // Another score object (a reload) is summarised afresh.
  const reloaded = await loadScoreFile(score('demo.score.json'));
  expect(scoreSummary(reloaded.score).sections).not.toBe(first.sections);
  expect(scoreSummary(reloaded.score).sections).toEqual(first.sections);
});

test("the console's transport status reads the engine once and agrees with the server's status", () => {
  const { engine } = server.show;
  const real = engine.status;
  let reads = 0;
  engine.status = () => {
    reads += 1;
    return real();
  };
  try {
    const view = transportStatus(server.show);
    expect(reads).toBe(1);
    const full = server.status();
    for (const key of ['transport', 'position', 'tempo', 'tempoOverride', 'tempoPercent', 'loop', 'epoch', 'seq', 'rehearsal']) {
      expect(view[key]).toEqual(full[key]);
    }
    expect(Object.keys(view)).toEqual([
      'transport',
      'position',
      'tempo',
      'tempoOverride',
      'tempoPercent',
      'loop',
      'epoch',
      'seq',
      'countIn',
      'rehearsal',
    ]);
    expect(view.countIn).toBeNull();
  } finally {
    engine.status = real;
  }
});

test('a running count-in is in the transport status, from the same reading of the engine', () => {
  const { engine } = server.show;
  engine.startFrom(engine.playFrom(), { countInBeats: 4 });
  try {
    const running = engine.status().countIn;
    const view = transportStatus(server.show);
    expect(view.countIn).toEqual({ beats: 4, startsAt: running.at + running.beats * running.beatMs });
  } finally {
    engine.cancelCountIn('test over');
  }
  expect(transportStatus(server.show).countIn).toBeNull();
});
