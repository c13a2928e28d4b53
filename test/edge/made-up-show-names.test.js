// Attack (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): requests that make the edge create or wake objects for
// nothing. `/s/<made-up>/…` for many names (with SHOWS unset every name used to get a root, and a
// shard for ws/vote: the issue measured 8,900 junk roots and 226 MB of storage); `/healthz?deep=1`
// (a root request, unauthenticated); `/media/*` (a root request each). Now SHOWS unset serves the
// default show only, deep health needs the publish token, and media come from the Worker's cache.
// Real local workerd.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test } from '@jest/globals';
import { edgeForSuite, openSocket, showStats } from './helpers.js';

const suite = edgeForSuite();

/** The objects of a class that exist in the edge's storage (Miniflare keeps one SQLite file per object). */
function objectFiles(className) {
  try {
    return readdirSync(join(suite.edge.dir, 'v3', 'do', `tutti-edge-${className}`)).filter((name) => /^[0-9a-f]{64}\.sqlite$/.test(name));
  } catch {
    return [];
  }
}

/** The HTTP status a WebSocket upgrade got (101 when it opened). */
async function wsStatus(url) {
  const socket = openSocket(url);
  const opened = await socket.opened.then(
    () => true,
    () => false,
  );
  socket.ws.terminate();
  return { status: opened ? 101 : socket.state.status };
}

test('/s/<made-up>/… for 40 names with SHOWS unset: 404 each, and no object is created', async () => {
  const NAMES = 40;
  const statuses = [];
  for (let i = 0; i < NAMES; i += 1) {
    const base = `${suite.edge.url}/s/made-up-${i}`;
    const answers = await Promise.all([
      wsStatus(`${base.replace(/^http/, 'ws')}/ws`),
      fetch(`${base}/sse`, { signal: AbortSignal.timeout(2000) }).catch(() => ({ status: 'timeout' })),
      fetch(`${base}/poll`),
      fetch(`${base}/healthz`),
      fetch(`${base}/vote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"key":"a~1","option":"x","device":"dev-000000000000000001"}',
      }),
    ]);
    for (const res of answers) {
      statuses.push(res.status);
      if (res.body) await res.body.cancel().catch(() => {});
    }
  }
  const roots = objectFiles('Show').length;
  const shards = objectFiles('Shard').length;
  console.log(
    `made-up show names: ${NAMES} names → ${roots} root objects, ${shards} shard objects; statuses ${[...new Set(statuses)].join(',')}`,
  );
  expect(new Set(statuses)).toEqual(new Set([404]));
  expect(roots).toBe(0);
  expect(shards).toBe(0);
}, 60_000);

test('/healthz?deep=1 (a root request) needs the publish token; plain /healthz does not', async () => {
  expect((await fetch(`${suite.edge.url}/healthz?deep=1`)).status).toBe(401);
  expect((await fetch(`${suite.edge.url}/healthz?deep=1`, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status).toBe(
    401,
  );
  const plain = await fetch(`${suite.edge.url}/healthz`);
  expect([plain.status, (await plain.json()).ok]).toEqual([200, true]);
  expect((await showStats(suite.edge)).epoch).toBeDefined();
});

test("100 GETs of one media file: served from the Worker's cache, not a root request each", async () => {
  const bytes = randomBytes(50_000);
  const put = await fetch(`${suite.edge.url}/publish/media/media/flood.png`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${suite.edge.token}` },
    body: bytes,
  });
  expect(put.status).toBe(201);
  const before = (await showStats(suite.edge)).mediaRequests ?? 0;
  for (let i = 0; i < 100; i += 1) {
    const res = await fetch(`${suite.edge.url}/media/media/flood.png`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  }
  const after = (await showStats(suite.edge)).mediaRequests;
  expect(typeof after).toBe('number'); // the root counts the media requests that reach it
  const reached = after - before;
  console.log(`media flood: 100 GETs → ${reached} root requests`);
  expect(reached).toBeLessThanOrEqual(2);
  // A replaced file is not served stale from this location's cache.
  const next = randomBytes(1000);
  expect(
    (
      await fetch(`${suite.edge.url}/publish/media/media/flood.png`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${suite.edge.token}` },
        body: next,
      })
    ).status,
  ).toBe(200);
  expect(Buffer.from(await (await fetch(`${suite.edge.url}/media/media/flood.png`)).arrayBuffer()).equals(next)).toBe(true);
}, 60_000);
