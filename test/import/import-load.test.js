// A large MIDI file and many imports (issue 40, item 5): reading MIDI is linear in its events
// (every tempo and marker event was filtered once per bar: 1M events over 5,000 bars took 21 s),
// and the console runs one import at a time, a second waiting its turn and saying so.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import midiFile from 'midi-file';
import { readMidi } from '../../local-server/src/import/midi.js';
import { createImportQueue } from '../../local-server/src/import/import-queue.js';
import { startShowServer } from '../../local-server/src/server.js';

const PPQ = 480;

/** A format 1 file of `bars` 4/4 bars with `perBar` tempo changes in each, and a marker every 8 bars. */
function bigMidi(bars, perBar) {
  const step = (4 * PPQ) / perBar;
  const conductor = [{ deltaTime: 0, type: 'timeSignature', meta: true, numerator: 4, denominator: 4, metronome: 24, thirtyseconds: 8 }];
  for (let b = 0; b < bars; b++)
    for (let i = 0; i < perBar; i++) {
      const microsecondsPerBeat = 500_000 + ((b * perBar + i) % 7) * 1000; // each differs from the one before
      conductor.push({ deltaTime: b + i === 0 ? 0 : step, type: 'setTempo', meta: true, microsecondsPerBeat });
      if (i === 0 && b % 8 === 0) conductor.push({ deltaTime: 0, type: 'marker', meta: true, text: `M${b}` });
    }
  conductor.push({ deltaTime: step, type: 'endOfTrack', meta: true });
  const notes = [
    { deltaTime: 0, type: 'noteOn', channel: 0, noteNumber: 60, velocity: 90 },
    { deltaTime: bars * 4 * PPQ, type: 'noteOff', channel: 0, noteNumber: 60, velocity: 0 },
    { deltaTime: 0, type: 'endOfTrack', meta: true },
  ];
  const header = { format: 1, numTracks: 2, ticksPerBeat: PPQ };
  return new Uint8Array(midiFile.writeMidi({ header, tracks: [conductor, notes] }));
}

test('reading MIDI is linear: 4 times the bars and events take about 4 times as long, not 16', () => {
  const read = (bytes) => readMidi(bytes, { maxMeasures: 5000, warn: () => {} });
  const took = (bytes) => {
    const t0 = performance.now();
    read(bytes);
    return performance.now() - t0;
  };
  const small = bigMidi(1000, 64); // 64,000 tempo events
  const large = bigMidi(4000, 64); // 256,000
  const piece = read(large);
  expect(piece.measures).toHaveLength(4000);
  expect(piece.measures.reduce((n, m) => n + m.tempos.length, 0)).toBe(256_000);
  expect(piece.measures.filter((m) => m.rehearsals.length)).toHaveLength(500);
  took(small); // warm up
  // The fastest of five runs each, interleaved, so a busy moment on a shared machine counts less.
  let bestSmall = Infinity;
  let bestLarge = Infinity;
  for (let i = 0; i < 5; i++) {
    bestSmall = Math.min(bestSmall, took(small));
    bestLarge = Math.min(bestLarge, took(large));
  }
  // Linear is ~4 (plus noise: 8.5 once, beside a browser suite); the per-bar filter made it ~14-16.
  expect(bestLarge / bestSmall).toBeLessThan(10);
}, 60_000);

test('the queue runs one task at a time, in order, a failure not stopping the next', async () => {
  const queue = createImportQueue();
  let running = 0;
  let most = 0;
  const order = [];
  const task =
    (name, fail = false) =>
    async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push(name);
      running -= 1;
      if (fail) throw new Error(name);
      return name;
    };
  const results = await Promise.allSettled([queue.run(task('a')), queue.run(task('b', true)), queue.run(task('c'))]);
  expect(most).toBe(1);
  expect(order).toEqual(['a', 'b', 'c']);
  expect(results.map((r) => (r.status === 'fulfilled' ? r.value : r.reason.message))).toEqual([
    { value: 'a', ahead: 0 },
    'b',
    { value: 'c', ahead: 2 },
  ]);
  expect(queue.size()).toBe(0);
});

test('a console import asked for while another runs waits for it, and its answer says it was queued', async () => {
  const token = 'import-queue-token';
  const dir = await mkdtemp(path.join(tmpdir(), 'tutti-import-queue-'));
  const server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token });
  try {
    const files = [path.join(dir, 'one.mid'), path.join(dir, 'two.mid')];
    for (const file of files) await writeFile(file, bigMidi(600, 8));
    const post = (file) =>
      fetch(`${server.controlUrl}/api/score/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ path: file }),
      }).then(async (res) => ({ status: res.status, body: await res.json(), at: performance.now() }));
    const first = post(files[0]);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the first is on its worker
    const [one, two] = await Promise.all([first, post(files[1])]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect([one.body.queued, two.body.queued]).toEqual([0, 1]);
    expect(two.body.score.bars).toBe(600);
    expect(two.at).toBeGreaterThan(one.at);
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);
