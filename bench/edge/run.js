// `npm run bench:edge`: publish → receive latency and loss for N WebSocket viewers of the edge
// worker on local workerd (127.0.0.1 only). For each N it starts a fresh worker, connects the
// viewers from child processes (≤ --per-process each, to stay under the open-files limit),
// publishes one delta every --interval ms for --duration ms, and reports p50/p99/max of
// (receive time − envelope t), lost deltas and the shards used. Prints a table and writes
// bench-results/edge.json.
//
//   node bench/edge/run.js [--viewers 1000,5000] [--duration 20000] [--interval 500]
//                          [--capacity 5000] [--per-process 4500]

import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { createEnvelope } from '#core/protocol/envelope.js';
import { startLocalEdge } from '../../edge-worker/scripts/local-edge.js';

const VIEWERS_SCRIPT = fileURLToPath(new URL('./viewers.js', import.meta.url));
const RESULTS = fileURLToPath(new URL('../../bench-results/edge.json', import.meta.url));

function parseArgs(argv) {
  const options = { viewers: [1000, 5000], duration: 20_000, interval: 500, capacity: 5000, perProcess: 4500, drain: 3000, verbose: false };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--verbose') {
      options.verbose = true;
      i -= 1;
      continue;
    }
    const number = Number(value);
    switch (flag) {
      case '--viewers':
        options.viewers = String(value).split(',').map(Number);
        break;
      case '--duration':
        options.duration = number;
        break;
      case '--interval':
        options.interval = number;
        break;
      case '--capacity':
        options.capacity = number;
        break;
      case '--per-process':
        options.perProcess = number;
        break;
      default:
        throw new Error(`unknown flag ${flag}: use --viewers N[,N…] --duration MS --interval MS --capacity N --per-process N`);
    }
  }
  const bad = [...options.viewers, options.duration, options.interval, options.capacity, options.perProcess].some((n) => !Number.isInteger(n) || n <= 0);
  if (bad) throw new Error('every flag takes a positive integer (--viewers a comma-separated list)');
  // Bound the run: at most 10 minutes of publishing per N.
  options.duration = Math.min(options.duration, 600_000);
  return options;
}

/** A forked viewers.js with request/reply over IPC. */
function startClient() {
  const child = fork(VIEWERS_SCRIPT, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let nextId = 0;
  const pending = new Map();
  child.on('message', (msg) => {
    pending.get(msg.id)?.(msg.result);
    pending.delete(msg.id);
  });
  return {
    child,
    call(cmd, payload, timeoutMs = 300_000) {
      const id = ++nextId;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`viewer process did not answer ${cmd} in ${timeoutMs} ms`)), timeoutMs);
        pending.set(id, (result) => {
          clearTimeout(timer);
          if (result?.error) reject(new Error(result.error));
          else resolve(result);
        });
        child.send({ id, cmd, payload });
      });
    },
    kill: () => child.kill('SIGKILL'),
  };
}

function percentile(histogram, total, p) {
  const rank = Math.ceil((p / 100) * total);
  let seen = 0;
  for (const [value, count] of histogram) {
    seen += count;
    if (seen >= rank) return value;
  }
  return histogram.at(-1)?.[0] ?? null;
}

async function openPublisher(url, token) {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/publish`, { headers: { authorization: `Bearer ${token}` }, perMessageDeflate: false });
  const replies = [];
  // Like the real uplink: a sign of life every `aliveMs` (the hello's), or the edge marks the
  // venue lost while thousands of viewers are still joining (edge-worker/README.md, "Venue status").
  const alive = '{"type":"alive"}';
  ws.on('message', (data) => {
    const text = String(data);
    if (text === alive) return;
    const reply = JSON.parse(text);
    replies.push(reply);
    if (reply.type === 'hello' && reply.aliveMs) {
      const timer = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send(alive), reply.aliveMs);
      ws.once('close', () => clearInterval(timer));
    }
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, replies };
}

/** A state the size of the real audience state (~0.5 KB), and beat-sized deltas. */
function initialState() {
  return {
    score: { id: 'bench', title: 'Edge benchmark', composer: 'Tutti', bars: 200 },
    transport: 'playing',
    tempo: 120,
    position: { bar: 1, beat: 1, beats: 4, at: Date.now(), index: 0 },
    section: { mark: 'A', name: 'Opening', bar: 1 },
    view: { text: 'Breathe in', instruction: 'hum softly', color: '#224466' },
  };
}

async function runOnce(n, options) {
  const token = randomBytes(16).toString('hex');
  const edge = await startLocalEdge({ token, persistDir: false, vars: { SHARD_CAPACITY: options.capacity, SHARD_COUNT: Math.max(32, Math.ceil(n / options.capacity) + 1) }, direct: true, log: options.verbose ? (line) => process.stderr.write(`[edge] ${line}\n`) : () => {} });
  const clients = [];
  try {
    const epoch = `bench-${Date.now()}`;
    const publisher = await openPublisher(edge.url, token);
    publisher.ws.send(JSON.stringify(createEnvelope('snapshot', epoch, 0, Date.now(), initialState())));

    const processes = Math.ceil(n / options.perProcess);
    for (let i = 0; i < processes; i += 1) clients.push(startClient());
    const shares = clients.map((_, i) => Math.floor(n / processes) + (i < n % processes ? 1 : 0));
    // One process after another: a shard accepts joins faster than two processes compete for it.
    const connects = [];
    for (let i = 0; i < clients.length; i += 1) connects.push(await clients[i].call('connect', { url: `${edge.url.replace(/^http/, 'ws')}/ws`, count: shares[i] }));
    const connected = connects.reduce((s, c) => s + c.connected, 0);
    const connectMs = connects.reduce((s, c) => s + c.ms, 0);
    const shards = {};
    for (const c of connects) for (const [k, v] of Object.entries(c.shards)) shards[k] = (shards[k] ?? 0) + v;

    // Publish: one delta per interval, stamped just before it is sent.
    const updates = Math.max(1, Math.floor(options.duration / options.interval));
    const started = Date.now();
    for (let seq = 1; seq <= updates; seq += 1) {
      const due = started + (seq - 1) * options.interval;
      await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
      const beat = ((seq - 1) % 4) + 1;
      const patch = { position: { bar: 1 + Math.floor((seq - 1) / 4), beat, at: Date.now() + 300, index: seq } };
      publisher.ws.send(JSON.stringify(createEnvelope('delta', epoch, seq, Date.now(), patch)));
    }
    await new Promise((r) => setTimeout(r, options.drain));
    const acks = publisher.replies.filter((r) => r.type === 'ack').length;
    const refused = publisher.replies.filter((r) => r.type !== 'ack' && r.type !== 'hello').length;
    const reports = await Promise.all(clients.map((c) => c.call('report', { firstSeq: 1, lastSeq: updates })));
    publisher.ws.close();

    const merged = new Map();
    const slowest = new Map();
    let expected = 0;
    let missing = 0;
    let unexpectedCloses = 0;
    let gapSnapshots = 0;
    for (const r of reports) {
      gapSnapshots += r.gapSnapshots;
      for (const [ms, count] of r.histogram) merged.set(ms, (merged.get(ms) ?? 0) + count);
      for (const [seq, ms] of r.slowest) slowest.set(seq, Math.max(slowest.get(seq) ?? 0, ms));
      expected += r.expected;
      missing += r.missing;
      unexpectedCloses += r.unexpectedCloses;
    }
    const histogram = [...merged].sort((a, b) => a[0] - b[0]);
    const samples = histogram.reduce((s, [, c]) => s + c, 0);
    const spread = [...slowest.values()].sort((a, b) => a - b).map((v) => [v, 1]);
    if (options.verbose) process.stderr.write(`slowest arrival per seq: ${JSON.stringify([...slowest].sort((a, b) => a[0] - b[0]))}\n`);
    return {
      viewers: n,
      connected,
      connectFailures: connects.reduce((s, c) => s + c.failed, 0),
      connectSeconds: Number((connectMs / 1000).toFixed(1)),
      shards: Object.keys(shards).length,
      perShard: shards,
      clientProcesses: clients.length,
      updates,
      acks,
      refused,
      samples,
      latencyMs: {
        p50: percentile(histogram, samples, 50),
        p99: percentile(histogram, samples, 99),
        max: histogram.at(-1)?.[0] ?? null,
      },
      // Time until the last viewer had each update (the whole fan-out of one delta).
      lastViewerMs: { p50: percentile(spread, spread.length, 50), p99: percentile(spread, spread.length, 99), max: spread.at(-1)?.[0] ?? null },
      lost: missing,
      gapSnapshots,
      lossPct: expected ? Number(((100 * missing) / expected).toFixed(4)) : null,
      unexpectedCloses,
    };
  } finally {
    await Promise.allSettled(clients.map((c) => c.call('close', null, 10_000)));
    for (const c of clients) c.kill();
    await edge.stop();
  }
}

function table(rows) {
  const head = ['viewers', 'connected', 'shards', 'updates', 'p50 ms', 'p99 ms', 'max ms', 'last-viewer p99 ms', 'lost', 'loss %', 'dropped'];
  const lines = rows.map((r) => [r.viewers, r.connected, r.shards, r.updates, r.latencyMs.p50, r.latencyMs.p99, r.latencyMs.max, r.lastViewerMs.p99, r.lost, r.lossPct, r.unexpectedCloses].map(String));
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => `| ${cells.map((c, i) => c.padStart(widths[i])).join(' | ')} |`;
  return [fmt(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)].join('\n');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const runs = [];
  for (const n of options.viewers) {
    process.stderr.write(`edge bench: ${n} viewers, ${options.duration} ms at one delta per ${options.interval} ms…\n`);
    const loadBefore = loadavg()[0];
    const run = await runOnce(n, options);
    run.loadAverage1m = { before: Number(loadBefore.toFixed(2)), after: Number(loadavg()[0].toFixed(2)) };
    runs.push(run);
  }
  console.log(table(runs));
  const result = {
    benchmark: 'edge',
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version },
    options,
    note: 'local workerd via wrangler (one single-threaded process runs the Worker and every Durable Object, so shards do not run in parallel here as they do on Cloudflare); viewer processes on the same machine; latency = receive time − envelope t; lost = deltas a viewer neither received nor got covered by a later snapshot; gapSnapshots = snapshots a lagging shard sent instead of deltas',
    runs,
  };
  mkdirSync(fileURLToPath(new URL('../../bench-results/', import.meta.url)), { recursive: true });
  writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`written ${RESULTS}`);
}

main().catch((err) => {
  console.error(`bench:edge failed: ${err?.message ?? err}`);
  process.exit(1);
});
