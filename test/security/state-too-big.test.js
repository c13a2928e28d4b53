// Attack (or accident): a score whose cues each stay small but whose audience view keeps
// growing. Before: `tutti validate` passed it, the venue played it, and once the snapshot passed
// the edge's frame limit the edge refused every frame: remote viewers froze. Now one constant,
// MAX_SNAPSHOT_BYTES (core/protocol/envelope.js), is the limit the validator replays every score
// against (core/score/validate-state-size.js) and the edge's publisher frame limit; the venue's
// uplink sends a snapshot in place of any delta that would not fit. Real engine as the oracle,
// real show server, real workerd.

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../local-server/src/cli.js';
import { validateScore } from '#core/score/validate.js';
import { snapshotSizeOverLimit } from '#core/score/validate-state-size.js';
import { createShowEngine } from '#core/engine/engine.js';
import { createEnvelope, MAX_SNAPSHOT_BYTES } from '#core/protocol/envelope.js';
import { startShow } from '../support/show.js';
import { showStats, startEdge, waitFor } from '../edge/helpers.js';
import { freePort } from '../support/free-port.js';

let work;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'tutti-state-size-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** 48 bars; a view cue on each of the first `grow` bars adds `chunk` characters of view data (each cue alone is small). */
function growingScore({ grow, chunk }) {
  return {
    format: 'tutti-score/1',
    id: 'growing',
    title: 'Growing',
    bars: 48,
    meter: [{ bar: 1, beats: 4, unit: 4 }],
    tempo: [{ at: { bar: 1 }, bpm: 240 }],
    view: { text: 'start' },
    cues: Array.from({ length: grow }, (_, i) => ({
      at: { bar: i + 1, beat: 2 },
      view: { text: `bar ${i + 1}`, data: { notes: { [`n${i + 1}`]: 'é'.repeat(chunk / 2) } } },
    })),
  };
}

/** The real engine's snapshot size at every bar (after the cues of beat 2), as the venue would send it. */
function realSnapshotSizes(score) {
  const engine = createShowEngine({ score, now: () => Date.now(), setTimer: () => 0, clearTimer: () => {} });
  const epoch = randomUUID();
  const sizes = [];
  for (let bar = 1; bar <= score.bars; bar += 1) {
    engine.seek(bar, 2);
    sizes.push(Buffer.byteLength(JSON.stringify(createEnvelope('snapshot', epoch, 123456, Date.now() + 0.25, engine.state()))));
  }
  engine.dispose();
  return sizes;
}

test('edge-frame-too-big: tutti validate replays the score and names the first bar whose snapshot passes MAX_SNAPSHOT_BYTES', async () => {
  const score = growingScore({ grow: 47, chunk: 8600 }); // ~404 KB by bar 47, as in the report
  const real = realSnapshotSizes(validateScoreUnchecked(score));
  const firstOver = real.findIndex((bytes) => bytes > MAX_SNAPSHOT_BYTES) + 1;
  expect(real[46]).toBeGreaterThan(390 * 1024);
  expect(firstOver).toBeGreaterThan(1);

  const file = join(work, 'growing.score.json');
  await writeFile(file, JSON.stringify(score));
  const lines = [];
  const code = await runCli(['validate', file], { out: (s) => lines.push(s), err: (s) => lines.push(s) });
  expect(code).toBe(1);
  const text = lines.join('\n');
  expect(text).toContain(`cues[${firstOver - 1}].view: at bar ${firstOver} beat 2 the audience state would be`);
  expect(text).toMatch(/over the 256\.0 KB limit \(MAX_SNAPSHOT_BYTES\)/);

  // The venue honours the same limit: it will not load the score.
  await expect(startShow({ scorePath: file })).rejects.toMatchObject({ code: 'INVALID_SCORE' });
});

/** The normalized score without the size rule (for the oracle, which must be able to play any size). */
function validateScoreUnchecked(score) {
  const small = validateScore({
    ...score,
    cues: score.cues.map((c) => ({ ...c, view: { ...c.view, data: { notes: { [Object.keys(c.view.data.notes)[0]]: 'x' } } } })),
  });
  const normalized = structuredClone(small.score);
  normalized.cues.forEach((cue, i) => {
    cue.view.data = score.cues[i].view.data;
  });
  return normalized;
}

test('edge-frame-too-big: the size the validator counts is never below the real snapshot, and within 1 KB of it', () => {
  for (const grow of [1, 10, 29]) {
    const score = growingScore({ grow, chunk: 8600 });
    const checked = validateScore(score);
    expect(checked.ok).toBe(true);
    const real = Math.max(...realSnapshotSizes(checked.score));
    const counted = snapshotSizeOverLimit(checked.score).largest;
    expect(counted).toBeGreaterThanOrEqual(real);
    expect(counted - real).toBeLessThan(1024);
  }
});

test('edge-frame-too-big: 100,000 cues are checked in one linear pass', () => {
  const tiles = {};
  for (let n = 0; n < 360; n += 1) tiles[`t${n}`] = { c: '#123456', s: 0 };
  const scoreWith = (count) => ({
    format: 'tutti-score/1',
    id: 'big',
    title: 'Big',
    bars: 10_000,
    meter: [{ bar: 1, beats: 4, unit: 4 }],
    tempo: [{ at: { bar: 1 }, bpm: 120 }],
    view: { data: { tiles } },
    cues: Array.from({ length: count }, (_, i) => ({
      at: { bar: 1 + Math.floor(i / 10), beat: 1 + (i % 4) },
      view: { data: { tiles: { [`t${i % 360}`]: { c: '#abcdef', s: i } } } },
    })),
  });
  /** The snapshot-size replay's time for a validated score of `count` cues (the fastest of 2). */
  const replayMs = (count) => {
    const checked = validateScore(scoreWith(count));
    expect(checked.ok).toBe(true);
    let best = Infinity;
    for (let k = 0; k < 2; k += 1) {
      const started = performance.now();
      snapshotSizeOverLimit(checked.score);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };
  // Linear, judged against itself in the same run (a loaded machine slows both alike): ten times
  // the cues may cost about ten times as long; a pass per cue over all cues would cost ~100 times.
  const small = replayMs(10_000);
  const large = replayMs(100_000);
  console.log(
    `snapshot-size replay: 10,000 cues ${small.toFixed(0)} ms, 100,000 cues ${large.toFixed(0)} ms (×${(large / small).toFixed(1)})`,
  );
  expect(large / small).toBeLessThan(30);
});

test('edge-frame-too-big: a score just under the limit plays on real workerd with every frame accepted, far seeks included', async () => {
  // Each snapshot fits; a seek from bar 20 to bar 39 swaps ~12,000 small keys for others, a delta
  // bigger than the limit: the uplink must send the snapshot instead.
  const keys = (prefix, from, count) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${from + i}`, 0]));
  const PER_CUE = 640;
  const cues = [];
  for (let i = 0; i < 19; i += 1) cues.push({ at: { bar: 2 + i }, view: { data: { k: keys('k', i * PER_CUE, PER_CUE) } } });
  for (let i = 0; i < 19; i += 1) {
    const gone = Object.fromEntries(Object.keys(keys('k', i * PER_CUE, PER_CUE)).map((k) => [k, null]));
    cues.push({ at: { bar: 21 + i }, view: { data: { k: gone, m: keys('m', i * PER_CUE, PER_CUE) } } });
  }
  const score = {
    format: 'tutti-score/1',
    id: 'swap',
    title: 'Swap',
    bars: 40,
    meter: [{ bar: 1, beats: 4, unit: 4 }],
    tempo: [{ at: { bar: 1 }, bpm: 120 }],
    cues,
  };
  const checked = validateScore(score);
  expect(checked.problems).toEqual([]);
  const file = join(work, 'swap.score.json');
  await writeFile(file, JSON.stringify(score));

  const edge = await startEdge({ port: await freePort() });
  const server = await startShow({ scorePath: file, autoplay: false, edgeUrl: edge.url, edgeToken: edge.token });
  const control = (body) =>
    fetch(`${server.controlUrl}/api/transport`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-token', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const caughtUp = () =>
    waitFor(
      async () => {
        const stats = await showStats(edge);
        return stats.epoch === server.show.stream.epoch() && stats.seq === server.show.stream.seq();
      },
      { timeoutMs: 20_000, what: "the edge to reach the venue's seq" },
    );
  try {
    await caughtUp();
    await control({ action: 'seek', bar: 20 });
    await caughtUp();
    await control({ action: 'seek', bar: 39 });
    const swap = server.show.stream.deltasSince(server.show.stream.seq() - 1)[0];
    expect(Buffer.byteLength(swap)).toBeGreaterThan(MAX_SNAPSHOT_BYTES);
    expect(Buffer.byteLength(server.show.stream.snapshot().json)).toBeLessThanOrEqual(MAX_SNAPSHOT_BYTES);
    await caughtUp();
    await control({ action: 'seek', bar: 1 });
    await caughtUp();
    const stats = await showStats(edge);
    expect(stats.frames.tooBig).toBe(0);
    // A poller gets the venue's current state. The Worker's feed cache coalesces refreshes: while
    // another request's refresh is in flight (the venue's /healthz probe, slow on a loaded
    // machine) a poll is answered from the copy before it, so wait for the copy to catch up.
    let remoteSeq = null;
    await waitFor(
      async () => {
        remoteSeq = (await (await fetch(`${edge.url}/poll`)).json())[0]?.seq ?? null;
        return remoteSeq === server.show.stream.seq();
      },
      { timeoutMs: 10_000, what: () => `a poll at the venue's seq ${server.show.stream.seq()} (last: ${remoteSeq})` },
    );
  } finally {
    await server.close();
    await edge.stop();
  }
}, 90_000);
