// A benchmark client process: opens `count` WebSocket viewers on the edge's /ws, records when
// each delta arrives (receive time − envelope t) and which seqs each viewer got, and answers
// the runner over IPC. Exits when the runner goes away.

import WebSocket from 'ws';

const CONNECT_CONCURRENCY = 64;

/** @type {{ ws: WebSocket, seqs: Set<number>, snapshotSeq: number, snapshots: number, shard: string | null, closed: boolean }[]} */
const viewers = [];
/** latency ms → count, for deltas only */
const histogram = new Map();
/** seq → slowest arrival across this process's viewers */
const slowest = new Map();
let unexpectedCloses = 0;
let stopping = false;

function reply(id, result) {
  if (process.connected) process.send({ id, result });
}

/**
 * @param {string} url
 * @param {string | null} address the viewer's internet address as the edge sees it (CF-Connecting-IP,
 *   which local workerd keeps): null is loopback, exempt from the edge's per-address limits
 */
function openOne(url, address = null) {
  return new Promise((resolve) => {
    const viewer = {
      ws: new WebSocket(url, { perMessageDeflate: false, ...(address ? { headers: { 'cf-connecting-ip': address } } : {}) }),
      seqs: new Set(),
      snapshotSeq: -1,
      snapshots: 0,
      shard: null,
      closed: false,
    };
    const { ws } = viewer;
    let settled = false;
    const settle = (ok) => {
      if (settled) return;
      settled = true;
      resolve(ok ? viewer : null);
    };
    ws.on('upgrade', (res) => {
      viewer.shard = res.headers['x-tutti-shard'] ?? null;
    });
    ws.on('open', () => settle(true));
    ws.on('message', (data) => {
      const now = Date.now();
      const text = String(data);
      // The envelope head is small and fixed: avoid parsing every data body.
      const type = /"type":"(\w+)"/.exec(text)?.[1];
      const seq = Number(/"seq":(\d+)/.exec(text)?.[1]);
      if (type === 'snapshot') {
        // A snapshot in place of missed deltas (the shard fell behind) covers them: not a loss.
        viewer.snapshots += 1;
        viewer.snapshotSeq = Math.max(viewer.snapshotSeq, seq);
        return;
      }
      if (type !== 'delta') return;
      const t = Number(/"t":(\d+)/.exec(text)?.[1]);
      viewer.seqs.add(seq);
      const latency = Math.max(0, now - t);
      histogram.set(latency, (histogram.get(latency) ?? 0) + 1);
      if ((slowest.get(seq) ?? -1) < latency) slowest.set(seq, latency);
    });
    ws.on('error', () => settle(false));
    ws.on('close', () => {
      viewer.closed = true;
      if (!stopping && settled) unexpectedCloses += 1;
      settle(false);
    });
  });
}

/**
 * @param {{ url: string, count: number, addressFrom?: number | null }} options addressFrom: give
 *   viewer i its own address, number addressFrom + i in 198.18.0.0/15 (run.js --limits on)
 */
async function connect({ url, count, addressFrom = null }) {
  const started = Date.now();
  let failed = 0;
  let next = 0;
  const addressOf = (i) =>
    addressFrom === null ? null : `198.${18 + ((addressFrom + i) >> 16)}.${((addressFrom + i) >> 8) & 255}.${(addressFrom + i) & 255}`;
  async function lane() {
    while (next < count) {
      const i = next;
      next += 1;
      const viewer = await openOne(url, addressOf(i));
      if (viewer) viewers.push(viewer);
      else failed += 1;
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONNECT_CONCURRENCY, count) }, lane));
  const shards = {};
  for (const v of viewers) shards[v.shard ?? '?'] = (shards[v.shard ?? '?'] ?? 0) + 1;
  return { connected: viewers.length, failed, ms: Date.now() - started, shards };
}

function report({ firstSeq, lastSeq }) {
  let expected = 0;
  let missing = 0;
  let gapSnapshots = 0;
  for (const v of viewers) {
    gapSnapshots += Math.max(0, v.snapshots - 1);
    for (let seq = firstSeq; seq <= lastSeq; seq += 1) {
      expected += 1;
      if (!v.seqs.has(seq) && v.snapshotSeq < seq) missing += 1;
    }
  }
  return {
    histogram: [...histogram],
    slowest: [...slowest],
    expected,
    missing,
    gapSnapshots,
    unexpectedCloses,
    open: viewers.filter((v) => !v.closed).length,
  };
}

async function close() {
  stopping = true;
  for (const v of viewers) v.ws.terminate();
  return { closed: viewers.length };
}

/** How many open viewers have `seq` (or a snapshot covering it): the runner's drain waits for all. */
function progress({ seq }) {
  const open = viewers.filter((v) => !v.closed);
  return { open: open.length, have: open.filter((v) => v.seqs.has(seq) || v.snapshotSeq >= seq).length };
}

const handlers = { connect, report, close, progress };
process.on('message', async (msg) => {
  try {
    reply(msg.id, await handlers[msg.cmd](msg.payload));
  } catch (err) {
    reply(msg.id, { error: err?.message ?? String(err) });
  }
});
process.on('disconnect', () => process.exit(0));
