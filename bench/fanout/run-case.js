// One run of one case with one implementation: start the server worker, start the client
// workers, ramp, measure a window, collect, and always tear every process down.

import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { forkWorker } from '../lib/children.js';
import { createHistogram } from '../lib/histogram.js';
import { summarize, round } from '../lib/stats.js';
import { readRssBytes, readCpuSeconds, createRssSampler } from '../lib/proc-stats.js';
import { parsePromText, histogramDelta, bucketPercentile, counterTotal } from '../lib/prom-text.js';
import { readSystemBusySeconds, waitForQuiet } from '../lib/system-cpu.js';

const SHOW_SERVER = fileURLToPath(new URL('./show-server.js', import.meta.url));
const NAIVE_SERVER = fileURLToPath(new URL('./naive-server.js', import.meta.url));
const SPLIT_SERVER = fileURLToPath(new URL('./proto/split-server.js', import.meta.url));
const CLIENT = fileURLToPath(new URL('./client.js', import.meta.url));
const MB = 1024 * 1024;
/** After the window closes, how long in-flight envelopes may take to arrive before they count as lost. */
const DRAIN_MS = 5000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const sum = (list, f) => list.reduce((a, x) => a + f(x), 0);

/** Split N viewers over processes of at most `perProcess`, as evenly as possible. */
export function splitClients(total, perProcess) {
  const procs = Math.max(1, Math.ceil(total / perProcess));
  return Array.from({ length: procs }, (_, i) => Math.floor(total / procs) + (i < total % procs ? 1 : 0));
}

async function scrapeMetrics(controlUrl, token) {
  const res = await fetch(`${controlUrl}/metrics`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`GET /metrics answered ${res.status}`);
  return parsePromText(await res.text());
}

/**
 * @param {object} options
 * @param {import('./args.js').Case} options.kase
 * @param {string} options.impl ours | naive | naive-delta
 * @param {number} options.run 1-based
 * @param {import('./args.js').Plan} options.plan
 * @param {(msg: string) => void} options.log one line per phase
 */
export async function runCase({ kase, impl, run, plan, log }) {
  const tag = `${kase.label} ${impl} #${run}`;
  const say = (msg) => log(`${tag}: ${msg}`);
  // The machine is shared: start on a quiet moment when there is one, and record what others used.
  const quiet =
    plan.quietWaitMs > 0
      ? await waitForQuiet({ maxMs: plan.quietWaitMs, thresholdPct: plan.quietCpuPct, log: say })
      : { quiet: true, waitedMs: 0, busyPct: null };
  if (!quiet.quiet)
    say(
      `machine still busy after ${Math.round(quiet.waitedMs / 1000)} s (${quiet.busyPct?.toFixed(0)}% of a core used by other processes); measuring anyway`,
    );
  // `--token=` form: a base64url token may start with "-", which parseArgs would take for a flag.
  const token = randomBytes(12).toString('base64url');
  const execArgv = plan.profileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${plan.profileDir}`, `--cpu-prof-name=${kase.label.replace(':', '-')}-${impl}-${run}.cpuprofile`]
    : [];
  const server =
    impl === 'ours' || impl === 'ours-pieces'
      ? forkWorker(SHOW_SERVER, {
          name: 'show server',
          args: [
            '--score',
            plan.score,
            `--token=${token}`,
            '--stream',
            kase.transport === 'lean' ? 'lean' : 'full',
            ...(impl === 'ours-pieces' ? ['--ahead-pieces'] : []),
          ],
          execArgv,
        })
      : impl.startsWith('proto-')
        ? forkWorker(SPLIT_SERVER, {
            name: `${impl} server`,
            args: ['--score', plan.score, '--workers', impl === 'proto-split' ? '2' : '1'],
            execArgv,
          })
        : forkWorker(NAIVE_SERVER, {
            name: `${impl} server`,
            args: ['--score', plan.score, '--mode', impl === 'naive' ? 'state' : 'delta'],
            execArgv,
          });
  /** Every process of the server under test (prototypes fan out from helper processes). */
  const serverPids = [server.pid];
  const serverCpuSeconds = () => sum(serverPids, (pid) => readCpuSeconds(pid) ?? 0);
  const serverRssBytes = () => sum(serverPids, (pid) => readRssBytes(pid) ?? 0);
  /** @type {import('../lib/children.js').Worker[]} */
  const clients = [];
  let aborted = null;
  const rss = createRssSampler(() => serverPids, {
    intervalMs: 200,
    onSample: (bytes) => {
      if (bytes > plan.maxRssBytes && !aborted) {
        aborted = `server RSS ${Math.round(bytes / MB)} MB exceeded --max-rss-mb ${Math.round(plan.maxRssBytes / MB)}`;
        server.child.kill('SIGKILL');
      }
    },
  });
  const loadStart = os.loadavg()[0];
  const started = performance.now();
  try {
    const ready = await server.waitFor('ready', 30_000);
    serverPids.push(...(ready.extraPids ?? []));
    await sleep(plan.quick ? 300 : 1000);
    const idleRss = serverRssBytes();
    say(`server up (pid ${server.pid}, idle RSS ${(idleRss / MB).toFixed(0)} MB)`);

    const shares = splitClients(kase.clients, plan.perProcess);
    shares.forEach((_, i) => clients.push(forkWorker(CLIENT, { name: `clients#${i + 1}` })));
    const inits = await Promise.all(
      clients.map((c, i) =>
        c.request(
          'init',
          {
            transport: kase.transport,
            audienceUrl: ready.audienceUrl,
            wsUrl: ready.wsUrl,
            count: shares[i],
            batch: plan.batch,
            pollIntervalMs: plan.pollIntervalMs,
            longPollWaitMs: plan.longPollWaitMs,
          },
          30_000,
        ),
      ),
    );

    // The last batch may still take CONNECT_ATTEMPTS handshake timeouts after the deadline.
    const ramps = await Promise.all(
      clients.map((c) => c.request('connect', { deadlineMs: plan.rampTimeoutMs }, plan.rampTimeoutMs + 90_000)),
    );
    const connected = sum(ramps, (r) => r.open);
    const rampSeconds = Math.max(...ramps.map((r) => r.seconds));
    const skipped = sum(ramps, (r) => r.skipped);
    say(
      `ramp: ${connected}/${kase.clients} connected in ${rampSeconds.toFixed(1)} s (${clients.length} client process${clients.length > 1 ? 'es' : ''})` +
        `${skipped ? `; ramp stopped after ${plan.rampTimeoutMs / 1000} s, ${skipped} viewers never tried` : ''}`,
    );
    if (connected === 0) throw new Error('no viewer could connect');
    await sleep(plan.quick ? 500 : 2000); // let the join snapshots drain before measuring
    const rampPeakRss = rss.peak();

    // ---- measurement window ----
    const metrics0 = impl.startsWith('ours') ? await scrapeMetrics(ready.controlUrl, token) : null;
    const cpu0 = serverCpuSeconds();
    const clientCpu0 = sum(clients, (c) => readCpuSeconds(c.pid) ?? 0);
    const system0 = readSystemBusySeconds();
    const runner0 = process.cpuUsage();
    rss.reset();
    const windowStartRss = serverRssBytes();
    const windowStart = await server.request('window-start');
    await Promise.all(clients.map((c) => c.request('start', { fromSeq: windowStart.seq })));
    const t0 = performance.now();
    const windowMs = kase.duration * 1000;
    while (performance.now() - t0 < windowMs) {
      const left = windowMs - (performance.now() - t0);
      await sleep(Math.min(left, 30_000));
      if (aborted) throw new Error(aborted);
      const done = (performance.now() - t0) / 1000;
      if (kase.duration >= 60 && done < kase.duration - 1)
        say(`holding: ${done.toFixed(0)}/${kase.duration} s, server RSS ${(rss.last() / MB).toFixed(0)} MB`);
    }
    const windowEnd = await server.request('window-end');
    await Promise.all(clients.map((c) => c.request('close-window', { toSeq: windowEnd.seq })));
    const windowSeconds = (performance.now() - t0) / 1000;
    const serverCpu = serverCpuSeconds() - cpu0;
    const clientCpu = sum(clients, (c) => readCpuSeconds(c.pid) ?? 0) - clientCpu0;
    const runnerUsage = process.cpuUsage(runner0);
    const system1 = readSystemBusySeconds();
    // CPU the rest of the machine used during the window (other people's processes).
    const foreignCpu =
      system0 === null || system1 === null
        ? NaN
        : system1 - system0 - serverCpu - clientCpu - (runnerUsage.user + runnerUsage.system) / 1e6;
    const memory = await server.request('memory');
    const metrics1 = impl.startsWith('ours') ? await scrapeMetrics(ready.controlUrl, token) : null;
    const windowPeakRss = rss.peak();
    const windowEndRss = serverRssBytes();

    // Envelopes still in flight get DRAIN_MS to arrive; later ones count as lost.
    const drainStart = performance.now();
    let drained = false;
    while (performance.now() - drainStart < DRAIN_MS) {
      const progress = await Promise.all(clients.map((c) => c.request('progress')));
      if (progress.every((p) => p.minLastSeq === null || p.minLastSeq >= windowEnd.seq)) {
        drained = true;
        break;
      }
      await sleep(100);
    }
    const reports = await Promise.all(clients.map((c) => c.request('report', null, 30_000)));
    if (aborted) throw new Error(aborted);

    const latency = createHistogram();
    for (const r of reports) latency.merge(r.latency);
    const updates = windowEnd.seq - windowStart.seq;
    const openAtStart = connected;
    const gaps = sum(reports, (r) => r.gaps);
    const behind = sum(reports, (r) => r.behind);
    const fanout = summarize(windowEnd.durations);
    const bytes = sum(reports, (r) => r.bytes);
    const open = sum(reports, (r) => r.open);
    const peakRss = Math.max(rampPeakRss, windowPeakRss);
    const perThousand = kase.clients / 1000;

    let serverMetrics = null;
    if (metrics0 && metrics1) {
      const h = histogramDelta(metrics1, 'tutti_fanout_duration_seconds', metrics0);
      const delta = (name, filter) => counterTotal(metrics1, name, filter) - counterTotal(metrics0, name, filter);
      serverMetrics = {
        fanoutCount: h.count,
        fanoutMeanMs: round(h.count ? (h.sum / h.count) * 1000 : NaN, 3),
        fanoutP99BucketLeMs: round(bucketPercentile(h, 99) * 1000, 3),
        framesDropped: delta('tutti_frames_dropped_total'),
        slowClientsClosed: delta('tutti_slow_clients_closed_total'),
        resyncs: delta('tutti_resyncs_total'),
        badInput: delta('tutti_bad_input_total'),
        messagesSent: delta('tutti_messages_sent_total'),
        bytesSent: delta('tutti_bytes_sent_total'),
        clients: { ws: metrics1.get('tutti_clients{transport="ws"}') ?? 0, sse: metrics1.get('tutti_clients{transport="sse"}') ?? 0 },
      };
    }

    const result = {
      ok: true,
      case: kase.label,
      transport: kase.transport,
      impl,
      run,
      clients: kase.clients,
      connected,
      openAtEnd: open,
      rampComplete: connected === kase.clients,
      rampSkipped: skipped,
      clientProcesses: clients.length,
      pids: { server: server.pid, clients: clients.map((c) => c.pid) },
      rampSeconds: round(rampSeconds, 2),
      window: { seconds: round(windowSeconds, 2), updates, fromSeq: windowStart.seq, toSeq: windowEnd.seq, drained },
      serverSawClients: windowStart.clients,
      latencyMs: {
        p50: round(latency.percentile(50), 3),
        p90: round(latency.percentile(90), 3),
        p99: round(latency.percentile(99), 3),
        p999: round(latency.percentile(99.9), 3),
        max: round(latency.max(), 3),
        mean: round(latency.mean(), 3),
        samples: latency.count(),
        negative: latency.toJSON().negatives,
      },
      messages: {
        expected: updates * openAtStart,
        received: sum(reports, (r) => r.messages),
        lost: gaps + behind,
        gaps,
        behind,
        viewersBehind: sum(reports, (r) => r.behindViewers),
        outOfOrder: sum(reports, (r) => r.outOfOrder),
        snapshots: sum(reports, (r) => r.snapshots),
        malformed: sum(reports, (r) => r.totals.malformed),
        verified: sum(reports, (r) => r.totals.verified),
        perViewer: {
          min: Math.min(...reports.map((r) => r.perViewerMessages.min)),
          max: Math.max(...reports.map((r) => r.perViewerMessages.max)),
        },
      },
      connections: {
        failed: sum(reports, (r) => r.totals.failed),
        closedInWindow: sum(reports, (r) => r.closedInWindow),
        closedTotal: sum(reports, (r) => r.totals.closed),
        errors: sum(reports, (r) => r.totals.errors),
        closeCodes: Object.assign({}, ...reports.map((r) => r.closeCodes)),
      },
      fanoutMs: {
        p50: round(fanout.p50, 3),
        p99: round(fanout.p99, 3),
        max: round(fanout.max, 3),
        mean: round(fanout.mean, 3),
        n: fanout.n,
      },
      serverMetrics,
      rss: {
        idleMb: round(idleRss / MB, 1),
        peakMb: round(peakRss / MB, 1),
        windowPeakMb: round(windowPeakRss / MB, 1),
        // Growth while nothing joins or leaves: a leak shows here first.
        windowStartMb: round(windowStartRss / MB, 1),
        windowEndMb: round(windowEndRss / MB, 1),
        mbPer1k: round(peakRss / MB / perThousand, 2),
        marginalMbPer1k: round((peakRss - idleRss) / MB / perThousand, 2),
      },
      cpu: {
        serverPct: round((serverCpu / windowSeconds) * 100, 1),
        clientsPct: round((clientCpu / windowSeconds) * 100, 1),
        clientLoopDelayP99Ms: round(Math.max(...reports.map((r) => r.eventLoopDelayMs.p99)), 1),
        otherProcessesPct: round(Math.max(0, (foreignCpu / windowSeconds) * 100), 1),
        quietBeforeRun: { ...quiet, busyPct: round(quiet.busyPct, 1) },
      },
      serverMemoryMb: Object.fromEntries(Object.entries(memory).map(([k, v]) => [k, round(Number(v) / MB, 1)])),
      bytes: {
        total: bytes,
        kbPerClientPerMin: round(open ? bytes / 1024 / open / (Math.max(...reports.map((r) => r.seconds)) / 60) : NaN, 1),
      },
      clock: { offsetsMs: inits.map((i) => round(i.offsetMs, 3)), rttMs: inits.map((i) => round(i.rttMs, 3)) },
      loadavg: { start: round(loadStart, 2), end: round(os.loadavg()[0], 2) },
      elapsedSeconds: round((performance.now() - started) / 1000, 1),
    };
    say(
      `window ${windowSeconds.toFixed(0)} s, ${updates} updates: p50 ${fmt(result.latencyMs.p50)} p99 ${fmt(result.latencyMs.p99)} max ${fmt(result.latencyMs.max)} ms, ` +
        `lost ${result.messages.lost}, out-of-order ${result.messages.outOfOrder}, fan-out p99 ${fmt(result.fanoutMs.p99)} ms, ` +
        `RSS ${result.rss.peakMb} MB, server CPU ${result.cpu.serverPct}%, other processes ${result.cpu.otherProcessesPct}%`,
    );
    return result;
  } catch (error) {
    const message = aborted ?? error?.message ?? String(error);
    say(`FAILED: ${message}`);
    return {
      ok: false,
      case: kase.label,
      transport: kase.transport,
      impl,
      run,
      clients: kase.clients,
      error: message,
      pids: { server: server.pid, serverHelpers: serverPids.slice(1), clients: clients.map((c) => c.pid) },
    };
  } finally {
    rss.stop();
    await Promise.all(clients.map((c) => c.stop(2000)));
    await server.stop(3000);
  }
}

const fmt = (v) => (v === null ? '-' : v < 10 ? v.toFixed(2) : v.toFixed(1));
