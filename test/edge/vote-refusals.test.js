// Malformed `POST /vote` on the edge (docs/explanation/edge-design.md#votes-at-the-edge): each is answered with its
// status and counted in the root's `show.viewerRequestsRefused`, reported by the Worker at most
// once a second per isolate, so a burst of bad requests is a handful of root RPCs, not one each.
// A name that SHOWS does not list never gets an object for it, counted or not. Real local workerd.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { deviceId } from '../support/vote-score.js';
import { postVote, showStats, startEdge, waitFor } from './helpers.js';

const JSON_TYPE = { 'content-type': 'application/json' };
/** One malformed request of each kind, with the status it must get and the bucket it counts in. */
const MALFORMED = [
  { kind: 'vote_method', status: 405, init: { method: 'GET' } },
  { kind: 'vote_method', status: 405, init: { method: 'PUT', headers: JSON_TYPE, body: '{}' } },
  { kind: 'vote_type', status: 415, init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' } },
  { kind: 'vote_size', status: 413, init: { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ key: 'k'.repeat(2000) }) } },
  { kind: 'vote_body', status: 400, init: { method: 'POST', headers: JSON_TYPE, body: '{"key":' } },
  {
    kind: 'vote_body',
    status: 400,
    init: { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ key: 'a~1', option: 'x', device: 'short' }) },
  },
];
const ZERO = { vote_method: 0, vote_type: 0, vote_size: 0, vote_body: 0 };

/** The Show objects that exist in the edge's storage (miniflare keeps one SQLite file per object). */
function showObjectFiles(edge) {
  const dir = join(edge.dir, 'v3', 'do', 'tutti-edge-Show');
  try {
    return readdirSync(dir).filter((name) => /^[0-9a-f]{64}\.sqlite$/.test(name));
  } catch {
    return [];
  }
}

const deepStats = (edge, base = '') => showStats(edge, base);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const diff = (after, before) => Object.fromEntries(Object.keys(ZERO).map((k) => [k, after[k] - before[k]]));

// SHOWS="*" (any well-formed name is a show): the opt-in under which a made-up name reaches the
// Worker's vote route at all (unset, it is 404 before anything: made-up-show-names.test.js).
describe('SHOWS="*"', () => {
  let edge;
  beforeAll(async () => {
    edge = await startEdge({ vars: { SHOWS: '*' } });
  }, 60_000);
  afterAll(async () => {
    await edge?.stop();
  });

  test('a named show nobody created: refused, not counted, and no object is created for it', async () => {
    expect(showObjectFiles(edge)).toEqual([]);
    for (const { status, init } of MALFORMED) expect((await fetch(`${edge.url}/s/made-up/vote`, init)).status).toBe(status);
    await sleep(1500);
    expect(showObjectFiles(edge)).toEqual([]);
    // The same refusals on the default show are reported to its root, which that alone creates
    // (so the check above could see one).
    for (const { status, init } of MALFORMED) expect((await fetch(`${edge.url}/vote`, init)).status).toBe(status);
    await waitFor(() => showObjectFiles(edge).length === 1, { timeoutMs: 5000, what: 'the default root to be created by the report' });
    await waitFor(async () => (await showStats(edge)).viewerRequestsRefused.vote_body === 2, { timeoutMs: 5000, what: 'the report' });
    expect((await showStats(edge)).viewerRequestsRefused).toEqual({ vote_method: 2, vote_type: 1, vote_size: 1, vote_body: 2 });
    expect(showObjectFiles(edge)).toHaveLength(1);
  }, 30_000);

  test('N of each kind: each its status, exactly N counted per kind; a well-formed vote is not', async () => {
    const N = 7;
    const before = await showStats(edge);
    for (let i = 0; i < N; i += 1) {
      for (const { status, init } of MALFORMED) expect((await fetch(`${edge.url}/vote`, init)).status).toBe(status);
    }
    // Well-formed, but no prompt is open: refused by the owner shard (409), not malformed.
    const closed = await postVote(edge, { key: 'a~1', option: 'x', device: deviceId(1) });
    expect(closed.status).toBe(409);
    const expected = { vote_method: 2 * N, vote_type: N, vote_size: N, vote_body: 2 * N };
    await waitFor(async () => diff((await showStats(edge)).viewerRequestsRefused, before.viewerRequestsRefused).vote_body >= 2 * N, {
      timeoutMs: 5000,
      what: 'the report',
    });
    // Nothing more arrives later: every refusal was counted once.
    await sleep(1500);
    const after = await showStats(edge);
    expect(diff(after.viewerRequestsRefused, before.viewerRequestsRefused)).toEqual(expected);
    expect(after.viewerFramesRefused.vote).toBe(0);
  }, 30_000);

  test('500 bad requests in a burst: all counted, in at most one report per second', async () => {
    const before = await showStats(edge);
    const TOTAL = 500;
    const started = Date.now();
    let sent = 0;
    const statuses = [];
    const worker = async () => {
      while (sent < TOTAL && Date.now() - started < 30_000) {
        const { status, init } = MALFORMED[sent % MALFORMED.length];
        sent += 1;
        const res = await fetch(`${edge.url}/vote`, init);
        await res.arrayBuffer();
        statuses.push(res.status === status);
      }
    };
    await Promise.all(Array.from({ length: 25 }, worker));
    const elapsedMs = Date.now() - started;
    expect(statuses).toEqual(Array(TOTAL).fill(true));
    const sum = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);
    await waitFor(async () => sum(diff((await showStats(edge)).viewerRequestsRefused, before.viewerRequestsRefused)) >= TOTAL, {
      timeoutMs: 5000,
      what: "all 500 in the root's stats",
    });
    await sleep(1500);
    const after = await showStats(edge);
    expect(sum(diff(after.viewerRequestsRefused, before.viewerRequestsRefused))).toBe(TOTAL);
    const reports = after.viewerRequestRefusalReports - before.viewerRequestRefusalReports;
    // Reports are at least 1 s apart, from the burst's start until about 1 s after its end
    // (plus one for a late timer): a handful, where one RPC per request would be 500.
    console.log(`vote-refusals: ${TOTAL} bad requests in ${elapsedMs} ms, ${reports} reports to the root`);
    expect(reports).toBeGreaterThanOrEqual(1);
    expect(reports).toBeLessThanOrEqual(Math.ceil(elapsedMs / 1000) + 2);
  }, 60_000);
});

describe('SHOWS set', () => {
  let edge;
  beforeAll(async () => {
    edge = await startEdge({ vars: { SHOWS: 'gala' } });
  }, 60_000);
  afterAll(async () => {
    await edge?.stop();
  });

  test('a listed show counts its own refusals; an unlisted name is 404 before anything', async () => {
    for (const { status, init } of MALFORMED) expect((await fetch(`${edge.url}/s/gala/vote`, init)).status).toBe(status);
    const unlisted = await fetch(`${edge.url}/s/other/vote`, { method: 'POST', headers: JSON_TYPE, body: '{' });
    expect(unlisted.status).toBe(404);
    expect(await unlisted.json()).toMatchObject({ error: 'NO_SUCH_SHOW' });
    await waitFor(async () => (await deepStats(edge, '/s/gala')).viewerRequestsRefused.vote_body === 2, {
      timeoutMs: 5000,
      what: "the report at gala's root",
    });
    await sleep(1200);
    expect((await deepStats(edge, '/s/gala')).viewerRequestsRefused).toEqual({ vote_method: 2, vote_type: 1, vote_size: 1, vote_body: 2 });
    expect((await deepStats(edge)).viewerRequestsRefused).toEqual(ZERO);
  }, 30_000);
});
