// One limits table for a viewer socket (core/protocol/viewer-limits.js): the edge's rules use its
// very objects, and the venue's /ws and per-socket voter build their buckets from it.
// test/parity/viewer-frames.test.js checks the same refusal point on the running servers.

import { readFileSync } from 'node:fs';
import { VIEWER_LIMITS } from '#core/protocol/viewer-limits.js';
import { FRAME_LIMITS, RESYNC_LIMITS, TAP_LIMITS, VOTE_LIMITS } from '../../../edge-worker/src/shard/viewer-rules.js';

const source = (path) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

test('every budget is a sane token bucket', () => {
  for (const [name, { ratePerSecond, burst }] of Object.entries(VIEWER_LIMITS)) {
    expect({ name, ok: ratePerSecond > 0 && Number.isInteger(burst) && burst >= 1 }).toEqual({ name, ok: true });
  }
  expect(Object.isFrozen(VIEWER_LIMITS) && Object.values(VIEWER_LIMITS).every(Object.isFrozen)).toBe(true);
});

test('the edge judges with the table itself', () => {
  expect([FRAME_LIMITS, RESYNC_LIMITS, VOTE_LIMITS, TAP_LIMITS]).toEqual([
    VIEWER_LIMITS.frames,
    VIEWER_LIMITS.resyncs,
    VIEWER_LIMITS.votes,
    VIEWER_LIMITS.taps,
  ]);
  expect(RESYNC_LIMITS).toBe(VIEWER_LIMITS.resyncs);
});

test('the venue builds its buckets from the table and writes no numbers of its own', () => {
  const ws = source('local-server/src/routes/ws.js');
  const voter = source('local-server/src/votes/socket-voter.js');
  expect(ws).toMatch(/createTokenBucket\(\{ \.\.\.VIEWER_LIMITS\.frames,/);
  expect(ws).toMatch(/createTokenBucket\(\{ \.\.\.VIEWER_LIMITS\.resyncs,/);
  expect(voter).toMatch(/createTokenBucket\(\{ \.\.\.VIEWER_LIMITS\.votes,/);
  expect(voter).toMatch(/createTokenBucket\(\{ \.\.\.VIEWER_LIMITS\.taps,/);
  for (const text of [ws, voter]) expect(text).not.toMatch(/ratePerSecond:\s*\d|burst:\s*\d/);
});
