// `npm run bench:edge`: publish → receive latency and loss for N WebSocket viewers of the edge
// worker on local workerd (127.0.0.1 only), beside the venue server's figure for the same N in
// the same run. For each N, each of --runs runs and each of --streams (the full stream and the
// lean one, `?stream=lean`) it starts a fresh worker (one workerd, the runtime `npm run edge:dev`
// runs), connects the viewers from child processes (≤ --per-process each, to stay under the
// open-files limit), publishes a playing show (bench-show.js: one delta per beat, an ahead chunk
// every 15 s) at one delta every --interval ms for --duration ms, and reports p50/p99/max of
// (receive time − envelope t: one clock, one machine), lost deltas, shards used, messages per
// viewer per minute and workerd's CPU per delivered message and per viewer; then the same N on
// the real show server (bench:fanout's `ours` ws:N case). Edge and venue alternate which goes
// first. Prints one line per run and a table of medians; writes bench-results/edge.json.
//
//   node bench/edge/run.js [--viewers 1000,5000] [--runs 3] [--duration 20000] [--interval 500]
//                          [--streams full,lean] [--drain 10000] [--capacity 5000] [--per-process 2500]
//                          [--venue on|off] [--limits off|on|both] [--quiet-wait 60] [--quiet-cpu 25] [--verbose]

import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { startLocalEdge } from '../../edge-worker/scripts/local-edge.js';
import { readCpuSeconds } from '../lib/proc-stats.js';
import { median, round } from '../lib/stats.js';
import { processName, processTree } from '../lib/process-tree.js';
import { readSystemBusySeconds, waitForQuiet } from '../lib/system-cpu.js';
import { createBenchShow } from './bench-show.js';
import { writeResults } from '../lib/results-file.js';
import { formatSummary, summarize } from './summary.js';
import { runVenueOnce } from './venue-run.js';

const VIEWERS_SCRIPT = fileURLToPath(new URL('./viewers.js', import.meta.url));
const RESULTS = fileURLToPath(new URL('../../bench-results/edge.json', import.meta.url));

const USAGE =
  'use --viewers N[,N…] --runs N --duration MS --interval MS --streams full,lean --drain MS --capacity N --per-process N --venue on|off --limits off|on|both --quiet-wait S --quiet-cpu PCT --verbose';
const STREAMS = ['full', 'lean'];

function parseArgs(argv) {
  const options = {
    viewers: [1000, 5000],
    runs: 3,
    duration: 20_000,
    interval: 500,
    streams: STREAMS,
    capacity: 5000,
    perProcess: 2500,
    drain: 10_000,
    venue: true,
    limits: 'off',
    quietWait: 60,
    quietCpu: 25,
    verbose: false,
  };
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
      case '--runs':
        options.runs = number;
        break;
      case '--streams':
        options.streams = String(value).split(',');
        if (options.streams.length === 0 || options.streams.some((name) => !STREAMS.includes(name)))
          throw new Error(`--streams takes full, lean or full,lean (got ${value})`);
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
      case '--drain':
        options.drain = number;
        break;
      case '--quiet-wait':
        options.quietWait = number;
        break;
      case '--quiet-cpu':
        options.quietCpu = number;
        break;
      case '--venue':
        if (value !== 'on' && value !== 'off') throw new Error(`--venue takes on or off (got ${value})`);
        options.venue = value === 'on';
        break;
      case '--limits':
        // The edge's per-client limits (docs/reference/edge-settings.md#limits-per-client): off = every
        // viewer on loopback, which they exempt; on = every viewer from an internet address of its
        // own, through every limit; both = each run twice, alternating, to compare in one run.
        if (!['off', 'on', 'both'].includes(value)) throw new Error(`--limits takes off, on or both (got ${value})`);
        options.limits = value;
        break;
      default:
        throw new Error(`unknown flag ${flag}: ${USAGE}`);
    }
  }
  const positive = [
    ...options.viewers,
    options.runs,
    options.duration,
    options.interval,
    options.drain,
    options.capacity,
    options.perProcess,
    options.quietCpu,
  ];
  if (positive.some((n) => !Number.isInteger(n) || n <= 0) || !Number.isInteger(options.quietWait) || options.quietWait < 0) {
    throw new Error('every flag takes a positive integer (--viewers a comma-separated list, --quiet-wait may be 0)');
  }
  // Bound the run: at most 10 minutes of publishing per N and run, at most 10 runs, and at most
  // 9,000 sockets per viewer process (20,000 open files per process here).
  options.duration = Math.min(options.duration, 600_000);
  options.drain = Math.min(options.drain, 60_000);
  options.runs = Math.min(options.runs, 10);
  options.perProcess = Math.min(options.perProcess, 9000);
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
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/publish`, {
    headers: { authorization: `Bearer ${token}` },
    perMessageDeflate: false,
  });
  const replies = [];
  // Like the real uplink: a sign of life every `aliveMs` (the hello's), or the edge marks the
  // venue lost while thousands of viewers are still joining (docs/reference/publisher-protocol.md#venue-status).
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

/**
 * @param {number} n viewers
 * @param {ReturnType<typeof parseArgs>} options
 * @param {'full' | 'lean'} stream which stream every viewer reads
 * @param {boolean} [limits] every viewer from an internet address of its own (the per-client limits apply)
 */
async function runEdgeOnce(n, options, stream, limits = false) {
  const token = randomBytes(16).toString('hex');
  const edge = await startLocalEdge({
    token,
    persistDir: false,
    vars: { SHARD_CAPACITY: options.capacity, SHARD_COUNT: Math.max(32, Math.ceil(n / options.capacity) + 1) },
    direct: true,
    log: options.verbose ? (line) => process.stderr.write(`[edge] ${line}\n`) : () => {},
  });
  const clients = [];
  try {
    const show = createBenchShow({ epoch: `bench-${Date.now()}`, beatMs: options.interval });
    const publisher = await openPublisher(edge.url, token);
    publisher.ws.send(show.snapshot());

    const processes = Math.ceil(n / options.perProcess);
    for (let i = 0; i < processes; i += 1) clients.push(startClient());
    const shares = clients.map((_, i) => Math.floor(n / processes) + (i < n % processes ? 1 : 0));
    // One process after another: a shard accepts joins faster than two processes compete for it.
    const connects = [];
    const url = `${edge.url.replace(/^http/, 'ws')}/ws${stream === 'lean' ? '?stream=lean' : ''}`;
    for (let i = 0; i < clients.length; i += 1) {
      const addressFrom = limits ? shares.slice(0, i).reduce((a, b) => a + b, 0) : null;
      connects.push(await clients[i].call('connect', { url, count: shares[i], addressFrom }));
    }
    const connected = connects.reduce((s, c) => s + c.connected, 0);
    const connectMs = connects.reduce((s, c) => s + c.ms, 0);
    const shards = {};
    for (const c of connects) for (const [k, v] of Object.entries(c.shards)) shards[k] = (shards[k] ?? 0) + v;

    // Where the time goes: workerd's CPU (one process runs the Worker and every Durable Object),
    // the viewer processes' CPU, and what the rest of the machine used meanwhile.
    const workerdPids = processTree(edge.pid).filter((pid) => processName(pid) === 'workerd');
    const cpuOf = (pids) => pids.reduce((sum, pid) => sum + (readCpuSeconds(pid) ?? 0), 0);
    const clientPids = clients.map((c) => c.child.pid ?? -1);
    const cpu0 = {
      workerd: cpuOf(workerdPids),
      clients: cpuOf(clientPids),
      system: readSystemBusySeconds(),
      runner: process.cpuUsage(),
      at: Date.now(),
    };

    // Publish: one delta per interval, stamped just before it is sent.
    const updates = Math.max(1, Math.floor(options.duration / options.interval));
    const started = Date.now();
    for (let seq = 1; seq <= updates; seq += 1) {
      const due = started + (seq - 1) * options.interval;
      await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
      publisher.ws.send(show.next().json);
    }
    const publishSeconds = (Date.now() - started) / 1000;
    // The seqs every viewer must get: all the publisher's, or the lean ones they led to.
    const lastSeq = show.seqs()[stream];
    // Late deltas are not lost: wait (up to --drain ms) until every open viewer has the last one.
    const drainStarted = Date.now();
    while (Date.now() - drainStarted < options.drain) {
      const progress = await Promise.all(clients.map((c) => c.call('progress', { seq: lastSeq })));
      if (progress.every((p) => p.have === p.open)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const drainMs = Date.now() - drainStarted;
    const seconds = (Date.now() - cpu0.at) / 1000;
    const workerdCpu = cpuOf(workerdPids) - cpu0.workerd;
    const clientCpu = cpuOf(clientPids) - cpu0.clients;
    const runnerCpu = (({ user, system }) => (user + system) / 1e6)(process.cpuUsage(cpu0.runner));
    const system1 = readSystemBusySeconds();
    const otherCpu = cpu0.system === null || system1 === null ? NaN : system1 - cpu0.system - workerdCpu - clientCpu - runnerCpu;
    const acks = publisher.replies.filter((r) => r.type === 'ack').length;
    const refused = publisher.replies.filter((r) => r.type !== 'ack' && r.type !== 'hello').length;
    const reports = await Promise.all(clients.map((c) => c.call('report', { firstSeq: 1, lastSeq })));
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
      stream,
      connected,
      connectFailures: connects.reduce((s, c) => s + c.failed, 0),
      connectSeconds: Number((connectMs / 1000).toFixed(1)),
      shards: Object.keys(shards).length,
      perShard: shards,
      clientProcesses: clients.length,
      updates,
      streamUpdates: lastSeq,
      // Deltas each viewer received per minute of publishing (the snapshot on joining not counted).
      messagesPerViewerPerMin: connected ? Number(((samples / connected) * (60 / publishSeconds)).toFixed(2)) : null,
      acks,
      refused,
      samples,
      latencyMs: {
        p50: percentile(histogram, samples, 50),
        p99: percentile(histogram, samples, 99),
        max: histogram.at(-1)?.[0] ?? null,
      },
      // Time until the last viewer had each update (the whole fan-out of one delta).
      lastViewerMs: {
        p50: percentile(spread, spread.length, 50),
        p99: percentile(spread, spread.length, 99),
        max: spread.at(-1)?.[0] ?? null,
      },
      lost: missing,
      gapSnapshots,
      lossPct: expected ? Number(((100 * missing) / expected).toFixed(4)) : null,
      unexpectedCloses,
      drainMs,
      cpu: {
        seconds: Number(seconds.toFixed(1)),
        workerdPct: Number(((100 * workerdCpu) / seconds).toFixed(1)),
        workerdUsPerMessage: samples ? Number(((workerdCpu * 1e6) / samples).toFixed(1)) : null,
        clientsPct: Number(((100 * clientCpu) / seconds).toFixed(1)),
        clientUsPerMessage: samples ? Number(((clientCpu * 1e6) / samples).toFixed(1)) : null,
        // workerd CPU per connected viewer: what one more viewer of this stream costs the shards.
        workerdUsPerViewerSecond: connected ? Number(((workerdCpu * 1e6) / connected / seconds).toFixed(2)) : null,
        otherProcessesPct: Number.isFinite(otherCpu) ? Number(((100 * Math.max(0, otherCpu)) / seconds).toFixed(1)) : null,
      },
    };
  } finally {
    await Promise.allSettled(clients.map((c) => c.call('close', null, 10_000)));
    for (const c of clients) c.kill();
    await edge.stop();
  }
}

const say = (line) => process.stderr.write(`${line}\n`);

/** --limits both: the edge with its limits off and on, side by side per stream (medians over runs). */
function formatLimits(runs) {
  const rows = [
    '| viewers | stream | limits | connected | connect s | p50 ms | p99 ms | max ms | lost | dropped |',
    '|---:|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const n of [...new Set(runs.map((r) => r.viewers))]) {
    for (const stream of [...new Set(runs.flatMap((r) => Object.keys(r.edge)))]) {
      for (const [side, label] of [
        ['edge', 'off'],
        ['edgeLimits', 'on'],
      ]) {
        const of = runs.filter((r) => r.viewers === n && r[side]?.[stream]).map((r) => r[side][stream]);
        const m = (pick) => round(median(of.map(pick)), 1);
        rows.push(
          `| ${n} | ${stream} | ${label} | ${m((e) => e.connected)} | ${m((e) => e.connectSeconds)} | ${m((e) => e.latencyMs.p50)} | ${m((e) => e.latencyMs.p99)} | ${m((e) => e.latencyMs.max)} | ${m((e) => e.lost)} | ${m((e) => e.unexpectedCloses)} |`,
        );
      }
    }
  }
  return rows.join('\n');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const runs = [];
  for (const n of options.viewers) {
    for (let run = 1; run <= options.runs; run += 1) {
      // Alternate which side goes first, so drift in machine load hits both.
      const edges = options.limits === 'both' ? (run % 2 === 1 ? ['edge', 'edgeLimits'] : ['edgeLimits', 'edge']) : ['edge'];
      const order = options.venue ? (run % 2 === 1 ? [...edges, 'venue'] : ['venue', ...edges]) : edges;
      /** @type {{ viewers: number, run: number, edge: Record<string, any>, edgeLimits?: Record<string, any>, venue: any }} */
      const entry = { viewers: n, run, edge: {}, venue: null, ...(options.limits === 'both' ? { edgeLimits: {} } : {}) };
      // The streams alternate too (full first on odd runs).
      const streams = run % 2 === 1 ? options.streams : [...options.streams].reverse();
      for (const side of order) {
        if (side !== 'venue') {
          const limits = side === 'edgeLimits' || options.limits === 'on';
          for (const stream of streams) {
            const quiet =
              options.quietWait > 0
                ? await waitForQuiet({ maxMs: options.quietWait * 1000, thresholdPct: options.quietCpu, log: say })
                : null;
            say(
              `edge ${n} viewers (${stream} stream${limits ? ', each from its own address: limits on' : ''}), run ${run}/${options.runs}: ${options.duration} ms at one delta per ${options.interval} ms…`,
            );
            const loadBefore = loadavg()[0];
            const edge = await runEdgeOnce(n, options, stream, limits);
            edge.limits = limits;
            edge.loadAverage1m = { before: Number(loadBefore.toFixed(2)), after: Number(loadavg()[0].toFixed(2)) };
            edge.quietBeforeRun = quiet;
            /** @type {Record<string, any>} */ (entry[side])[stream] = edge;
            say(
              `edge${limits ? ' (limits on)' : ''} ${n} ${stream} #${run}: ${edge.connected} connected, ${edge.shards} shard(s), p50 ${edge.latencyMs.p50} p99 ${edge.latencyMs.p99} max ${edge.latencyMs.max} ms, lost ${edge.lost}, dropped ${edge.unexpectedCloses}; ` +
                `${edge.messagesPerViewerPerMin} msgs/viewer/min; workerd ${edge.cpu.workerdPct}% of a core (${edge.cpu.workerdUsPerMessage} µs/msg, ${edge.cpu.workerdUsPerViewerSecond} µs per viewer-second), viewers ${edge.cpu.clientsPct}% (${edge.cpu.clientUsPerMessage} µs/msg), other processes ${edge.cpu.otherProcessesPct}%`,
            );
          }
        } else {
          const venue = await runVenueOnce({
            viewers: n,
            durationMs: options.duration,
            run,
            quietWaitS: options.quietWait,
            quietCpuPct: options.quietCpu,
            log: (line) => options.verbose && say(`[venue] ${line}`),
          });
          entry.venue = venue;
          say(
            venue.ok
              ? `venue ${n} #${run}: ${venue.connected} connected, p50 ${venue.p50} p99 ${venue.p99} max ${venue.max} ms, lost ${venue.lost}; server ${venue.raw.cpu.serverPct}% of a core, other processes ${venue.otherCpuPct}%`
              : `venue ${n} #${run}: FAILED ${venue.error}`,
          );
        }
      }
      runs.push(entry);
    }
  }
  const summary = summarize(runs);
  const tables = [];
  const title = 'medians over runs (edge: local workerd, one process; venue: the show server; same viewers, same machine)';
  const table = formatSummary(summary, tables, title);
  console.log(`\n${title}:\n${table}`);
  const limitsTable = options.limits === 'both' ? formatLimits(runs) : null;
  if (limitsTable)
    console.log(
      `\nthe edge's limits per client, off (viewers on loopback, exempt) and on (each viewer from its own address), medians over runs:\n${limitsTable}`,
    );
  const result = {
    benchmark: 'edge',
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version },
    options,
    note: "edge: local workerd started by Miniflare without wrangler's dev proxy (edge-worker/scripts/direct-runtime.js; one single-threaded process runs the Worker and every Durable Object, so shards do not run in parallel here as they do on Cloudflare); viewer processes on the same machine; latency = receive time − envelope t (same clock); lost = deltas a viewer neither received nor got covered by a later snapshot by the end of the drain (which ends as soon as every viewer has the last delta, at most --drain ms); gapSnapshots = snapshots a lagging shard sent instead of deltas; workerd µs/msg = workerd CPU during publishing and drain / deltas delivered; workerd µs per viewer-second = the same CPU / connected viewers / seconds; msgs/viewer/min = deltas each viewer received per minute of publishing. Streams: full = one delta per beat (the publisher's bytes), lean = ?stream=lean, derived by the root (one delta per 15 s ahead chunk here). venue: bench:fanout ws:N ours (the load score, one delta per beat at 120 bpm and a view change every other beat: larger frames than the edge run's beat deltas)",
    summary,
    table,
    limitsTable,
    runs: runs.map((r) => ({ ...r, venue: r.venue && { ...r.venue, raw: undefined, detail: r.venue.raw } })),
  };
  writeResults(RESULTS, { script: 'bench:edge', tables, data: result });
  console.log(`written ${RESULTS}`);
}

main().catch((err) => {
  console.error(`bench:edge failed: ${err?.message ?? err}`);
  process.exit(1);
});
