#!/usr/bin/env node
// `npm run bench:osc` (docs/results.md#osc-timing-under-load-benchosc): beats to 8 OSC targets with their
// default settings (plain messages sent when each beat sounds) while the same show server serves
// 5,000 WebSocket viewers, against a no-viewers baseline in the same run. The server and the
// viewers run in their own processes; the 8 receivers (real UDP sockets) sit in this otherwise
// idle process and stamp each /tutti/beat on arrival. Error = arrival − the time the beat sounds
// (the engine's schedule, on the same wall clock). Each run: baseline window, then the viewers
// connect, then the loaded window. Prints medians over runs and writes bench-results/osc.json.
//
//   npm run bench:osc [-- --runs 3 --seconds 10 --viewers 5000 --targets 8 --bpm 120 --viewers-nice 0 --out FILE]
//
// --bpm 200 makes the lookahead (300 ms) one beat exactly: each beat's update is fanned out to the
// viewers at the moment the beat before it must be sent, the worst case for the server's timing.

import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { cpus, loadavg, setPriority } from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { decode } from 'node-osc';
import { forkWorker, killAllChildren } from '../lib/children.js';
import { median, percentile, round } from '../lib/stats.js';
import { printTable, writeResults } from '../lib/results-file.js';

const SERVER = fileURLToPath(new URL('./show-server.js', import.meta.url));
const VOTERS = fileURLToPath(new URL('../votes/voters.js', import.meta.url));
const SCORE = fileURLToPath(new URL('../../scores/union-rose-load.score.json', import.meta.url));
const RESULTS = fileURLToPath(new URL('../../bench-results/osc.json', import.meta.url));
const VIEWERS_PER_PROCESS = 2500;
const wallClock = () => performance.timeOrigin + performance.now();

/** @param {string[]} argv */
export function parseBenchArgs(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: 'string', default: '3' },
      seconds: { type: 'string', default: '10' },
      viewers: { type: 'string', default: '5000' },
      targets: { type: 'string', default: '8' },
      bpm: { type: 'string', default: '120' },
      'viewers-nice': { type: 'string', default: '0' },
      out: { type: 'string' },
    },
  });
  const n = (name, min, max) => {
    const v = Number(values[name]);
    if (!Number.isInteger(v) || v < min || v > max) throw new Error(`--${name} takes a whole number from ${min} to ${max}`);
    return v;
  };
  // Bounded: the machine is shared.
  return {
    runs: n('runs', 1, 9),
    seconds: n('seconds', 3, 60),
    viewers: n('viewers', 0, 10_000),
    targets: n('targets', 1, 32),
    bpm: n('bpm', 20, 400),
    viewersNice: n('viewers-nice', 0, 19),
    out: values.out ?? RESULTS,
  };
}

/** A receiver that stamps each /tutti/beat on arrival (bundles too, as Pd or Max would). */
async function receiver() {
  const socket = dgram.createSocket('udp4');
  /** @type {Array<[number, number, number]>} [bar, beat, arrival] */
  const beats = [];
  socket.on('message', (bytes) => {
    const at = wallClock();
    try {
      const packet = decode(bytes);
      for (const m of packet.oscType === 'bundle' ? packet.elements : [packet]) {
        if (m.address === '/tutti/beat') beats.push([m.args[0].value, m.args[1].value, at]);
      }
    } catch {
      // not OSC: ignored
    }
  });
  await new Promise((r) => socket.bind(0, '127.0.0.1', r));
  return { port: socket.address().port, beats, close: () => socket.close() };
}

/** Errors (ms) of the beats received within [from, to) against the schedule. */
function errorsIn(receivers, schedule, from, to) {
  /** @type {Map<string, number[]>} */
  const times = new Map();
  for (const [bar, beat, at] of schedule) {
    const k = `${bar}:${beat}`;
    if (!times.has(k)) times.set(k, []);
    times.get(k)?.push(at);
  }
  const errors = [];
  for (const r of receivers) {
    for (const [bar, beat, arrived] of r.beats) {
      if (arrived < from || arrived >= to) continue;
      const candidates = times.get(`${bar}:${beat}`) ?? [];
      if (candidates.length === 0) continue;
      const at = candidates.reduce((best, t) => (Math.abs(arrived - t) < Math.abs(arrived - best) ? t : best));
      errors.push(arrived - at);
    }
  }
  return errors;
}

function summary(errors) {
  const abs = errors.map(Math.abs);
  const worst = errors.length ? errors[abs.indexOf(Math.max(...abs))] : NaN;
  return { n: errors.length, median: round(median(errors), 2), p99: round(percentile(abs, 99), 2), worst: round(worst, 2) };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function oneRun(options, index) {
  const receivers = await Promise.all(Array.from({ length: options.targets }, receiver));
  const server = forkWorker(SERVER, {
    name: 'show server',
    args: [
      '--score',
      SCORE,
      // `--token=` form: a base64url token may start with "-", which parseArgs would take for a flag.
      `--token=${randomBytes(18).toString('base64url')}`,
      '--targets',
      receivers.map((r) => r.port).join(','),
      '--bpm',
      String(options.bpm),
    ],
  });
  const voters = [];
  try {
    const { wsUrl } = await server.waitFor('ready', 30_000);
    /** @type {Array<[number, number, number]>} */
    const schedule = [];
    const collect = async () => {
      const got = await server.request('beats');
      schedule.push(...got.beats);
      return got;
    };
    await sleep(1500); // the first beats after start-up are not part of either window
    process.stdout.write(`run ${index + 1}: baseline ${options.seconds} s`);
    const baseFrom = wallClock();
    await sleep(options.seconds * 1000);
    const baseTo = wallClock();
    await collect();

    process.stdout.write(`; connecting ${options.viewers} viewers`);
    const connectStarted = Date.now();
    let connected = 0;
    for (let left = options.viewers; left > 0; left -= VIEWERS_PER_PROCESS) {
      const worker = forkWorker(VOTERS, { name: `viewers ${voters.length + 1}` });
      voters.push(worker);
      // The viewers stand for phones, which have CPUs of their own: at --viewers-nice their load
      // waits behind the server's threads instead of competing with them (0: equal footing).
      if (options.viewersNice) setPriority(worker.pid, options.viewersNice);
      const count = Math.min(VIEWERS_PER_PROCESS, left);
      connected += (await worker.request('connect', { url: wsUrl, count, prefix: `osc${voters.length}` }, 300_000)).connected;
    }
    process.stdout.write(` (${connected} in ${((Date.now() - connectStarted) / 1000).toFixed(0)} s); loaded ${options.seconds} s\n`);
    await sleep(1000);
    const loadFrom = wallClock();
    await sleep(options.seconds * 1000);
    const loadTo = wallClock();
    const last = await collect();
    // The viewers' own push latency over the loaded window: proof they were being served.
    const pushes = [];
    for (const v of voters) {
      const report = await v.request('report', { calm: [loadFrom, loadTo], storm: [0, 0] }, 60_000);
      pushes.push(...report.calm);
    }
    return {
      baseline: summary(errorsIn(receivers, schedule, baseFrom, baseTo)),
      loaded: {
        ...summary(errorsIn(receivers, schedule, loadFrom, loadTo)),
        viewers: last.clients.ws,
        pushP50: round(percentile(pushes, 50), 1),
        pushP99: round(percentile(pushes, 99), 1),
        pushes: pushes.length,
      },
      oscErrors: last.osc.reduce((sum, t) => sum + t.errors, 0),
    };
  } finally {
    await Promise.all(voters.map((v) => v.stop()));
    await server.stop();
    receivers.forEach((r) => r.close());
  }
}

async function main() {
  let options;
  try {
    options = parseBenchArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`bench:osc: ${err.message}\n`);
    process.exit(2);
  }
  process.stdout.write(
    `bench:osc — ${options.targets} OSC targets (default: plain, sent when each beat sounds), ${options.viewers} WebSocket viewers${options.viewersNice ? ` (nice ${options.viewersNice})` : ''}, ${options.bpm} bpm, ${options.runs} run(s) of ${options.seconds} s + ${options.seconds} s; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores\n`,
  );
  const runs = [];
  for (let i = 0; i < options.runs; i += 1) runs.push(await oneRun(options, i));
  const rows = runs.flatMap((r, i) => [
    { run: String(i + 1), phase: 'no viewers', ...r.baseline, viewers: 0 },
    { run: String(i + 1), phase: `${r.loaded.viewers} viewers`, ...r.loaded },
  ]);
  const med = (phase, key) => median(runs.map((r) => r[phase][key]));
  rows.push({
    run: 'median',
    phase: 'no viewers',
    n: med('baseline', 'n'),
    median: med('baseline', 'median'),
    p99: med('baseline', 'p99'),
    worst: med('baseline', 'worst'),
    viewers: 0,
  });
  rows.push({
    run: 'median',
    phase: 'with viewers',
    n: med('loaded', 'n'),
    median: med('loaded', 'median'),
    p99: med('loaded', 'p99'),
    worst: med('loaded', 'worst'),
    viewers: med('loaded', 'viewers'),
    pushP50: med('loaded', 'pushP50'),
    pushP99: med('loaded', 'pushP99'),
  });
  const tables = [];
  printTable(
    tables,
    'Beat timing error at the receivers, ms (arrival − the time the beat sounds; p99 and worst of |error|, worst signed)',
    [
      { key: 'run', label: 'run' },
      { key: 'phase', label: 'phase' },
      { key: 'n', label: 'beats' },
      { key: 'median', label: 'median' },
      { key: 'p99', label: 'p99' },
      { key: 'worst', label: 'worst' },
      { key: 'viewers', label: 'viewers' },
      { key: 'pushP50', label: 'push p50' },
      { key: 'pushP99', label: 'push p99' },
    ],
    rows,
  );
  const errors = runs.reduce((sum, r) => sum + r.oscErrors, 0);
  if (errors) process.stdout.write(`OSC send errors: ${errors}\n`);
  writeResults(options.out, { script: 'bench:osc', tables, data: { options, runs, rows } });
  process.stdout.write(`Wrote ${options.out}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`bench:osc: ${err.stack ?? err}\n`);
    killAllChildren();
    process.exit(1);
  });
}
