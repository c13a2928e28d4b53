#!/usr/bin/env node
// `npm run bench:notation` (docs/reference/notation.md#the-cache): what engraving costs.
// 1. Engraving: for each corpus file, a show server with a fresh notation cache engraves every
//    part and the full score in every layout (as after a score loads); time for the whole file,
//    per page, and the SVG bytes of a page gzipped, read back through the part-page routes.
// 2. Beat timing: the show server alone in its own process (show-server.js) plays at --bpm to a
//    UDP receiver in this one; error = arrival − the time the beat sounds (the engine's schedule).
//    A baseline window with nothing engraving, then a window while the server engraves --file
//    over and over (each pass a fresh copy, so the cache never answers). The beats of all --runs
//    are pooled per window (400 bpm × 30 s × 3 runs: 600 beats, so p99 is not the worst beat),
//    and the show's event-loop delay (perf_hooks) is read per window in the server's process:
//    what would hold a beat back, with the show thread's own CPU time and its time waiting for a
//    CPU (Linux schedstat; medians of runs): its own work or contention. Writes bench-results/notation.json. The load average is
//    printed: on a busy machine both windows show it.
//
//   npm run bench:notation [-- --runs 3 --seconds 30 --bpm 400 --file NAME --also PATH --out FILE]

import dgram from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { decode } from 'node-osc';
import { createLog, LAYOUTS, startShowServer } from '../../local-server/index.js';
import { forkWorker } from '../lib/children.js';
import { runBench } from '../lib/cli.js';
import { printTable, writeResults } from '../lib/results-file.js';
import { median, percentile, round } from '../lib/stats.js';
import { importNotation } from './import-notation.js';

const CORPUS = fileURLToPath(new URL('../../test/fixtures/corpus/musicxml/', import.meta.url));
const SERVER = fileURLToPath(new URL('./show-server.js', import.meta.url));
const VIEWERS = fileURLToPath(new URL('../votes/voters.js', import.meta.url));
const SHOW_SCORE = fileURLToPath(new URL('../../scores/union-rose-load.score.json', import.meta.url));
const RESULTS = fileURLToPath(new URL('../../bench-results/notation.json', import.meta.url));
const FILES = [
  'Brahms_violin_concerto.musicxml',
  'Mozart_String_Quartet_in_G_K._387_1st_Mvmnt_excerpt.musicxml',
  'Dichterliebe01.xml',
  'Saltarello.mxl',
];
const wallClock = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const USAGE = `npm run bench:notation [-- --runs 3 --seconds 30 --bpm 400 --viewers 200 --file NAME --also PATH --out FILE]
  --viewers N  WebSocket viewers of the show in both timing windows (0: none); their push p50/p99 is reported
  --also PATH  engrave another MusicXML file too (repeatable), e.g. a large orchestral score from
               music21's corpus (python3 -c "from music21 import corpus; print(corpus.getWork('bwv248.64-6'))")\n`;

function parse(argv) {
  const options = { runs: 3, seconds: 30, bpm: 400, viewers: 200, file: 'Dichterliebe01.xml', also: [], out: RESULTS };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
    if (flag === '--file' && FILES.includes(value)) options.file = value;
    else if (flag === '--out') options.out = path.resolve(value);
    else if (flag === '--also') options.also.push(path.resolve(value));
    else if (['--runs', '--seconds', '--bpm', '--viewers'].includes(flag)) {
      const [min, max] = { '--runs': [1, 9], '--seconds': [3, 60], '--bpm': [20, 400], '--viewers': [0, 2500] }[flag];
      const n = Number(value);
      if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} takes a whole number from ${min} to ${max}`);
      options[flag.slice(2)] = n;
    } else throw new Error(`unknown flag ${flag} (--file is one of ${FILES.join(', ')})\n${USAGE}`);
  }
  return options;
}

/** A show server playing `scorePath`, engraving into `cacheDir`, OSC beats to `oscPort`. */
function serve(scorePath, cacheDir, oscPort) {
  return startShowServer({
    scorePath,
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    stateFile: null,
    notationCacheDir: cacheDir,
    log: createLog(),
    oscTargets: oscPort ? [{ host: '127.0.0.1', port: oscPort }] : [],
    now: wallClock,
  });
}

/** Engrave one file from scratch: whole-file time, pages, and gzipped page sizes via the routes. */
async function engraveOnce(work, file) {
  const { scorePath, score } = await importNotation(
    path.resolve(CORPUS, file),
    path.join(work, `e-${Math.random().toString(36).slice(2)}`),
  );
  const server = await serve(scorePath, path.join(work, `cache-${Math.random().toString(36).slice(2)}`), 0);
  try {
    const t0 = performance.now();
    await server.notation.settled();
    const ms = performance.now() - t0;
    const base = `${server.audienceUrl}/part/${server.partKey}/notation`;
    let pages = 0;
    const gz = [];
    for (const part of [...score.parts.map((p) => p.id), 'all'])
      for (const layout of Object.keys(LAYOUTS)) {
        const map = await (await fetch(`${base}/${part}.json?layout=${layout}`)).json();
        pages += map.pages;
        for (let n = 1; n <= map.pages; n += 1)
          gz.push(gzipSync(Buffer.from(await (await fetch(`${base}/${part}/${n}.svg?layout=${layout}`)).arrayBuffer())).length);
      }
    return { parts: score.parts.length, ms, pages, gzMedian: median(gz) / 1024, gzMax: Math.max(...gz) / 1024 };
  } finally {
    await server.close();
  }
}

async function receiver() {
  const socket = dgram.createSocket('udp4');
  /** @type {Array<[string, number]>} */
  const arrivals = [];
  socket.on('message', (bytes) => {
    const at = wallClock();
    const packet = decode(bytes);
    for (const m of packet.oscType === 'bundle' ? packet.elements : [packet])
      if (m.address === '/tutti/beat') arrivals.push([`${m.args[0].value}:${m.args[1].value}`, at]);
  });
  await new Promise((r) => socket.bind(0, '127.0.0.1', r));
  return { port: socket.address().port, arrivals, close: () => socket.close() };
}

/** The errors (ms) of the beats that arrived within [from, to), against the server's schedule. */
function errorsIn(arrivals, schedule, from, to) {
  const at = new Map(schedule.map(([bar, beat, t]) => [`${bar}:${beat}`, t]));
  return arrivals.flatMap(([key, arrived]) => (arrived >= from && arrived < to && at.has(key) ? [arrived - at.get(key)] : []));
}

/**
 * One timing run, the server alone in its own process (as on a venue laptop) and the receiver in
 * this otherwise idle one: a baseline window, then one while the server engraves `file` again and again.
 */
async function timingRun(work, options) {
  const rx = await receiver();
  const server = forkWorker(SERVER, {
    name: 'show server',
    args: [
      '--score',
      SHOW_SCORE,
      '--target',
      String(rx.port),
      '--bpm',
      String(options.bpm),
      '--file',
      path.join(CORPUS, options.file),
      '--work',
      work,
    ],
  });
  let viewers = null;
  try {
    const { wsUrl } = await server.waitFor('ready', 60_000);
    if (options.viewers > 0) {
      // Phones on the same show in both windows: the fan-out's push latency with and without engraving.
      viewers = forkWorker(VIEWERS, { name: 'viewers' });
      await viewers.request('connect', { url: wsUrl, count: options.viewers, prefix: 'notation' }, 120_000);
    }
    const schedule = [];
    await sleep(1500); // start-up beats are in neither window
    await server.request('loop');
    const baseFrom = wallClock();
    await sleep(options.seconds * 1000);
    const baseTo = wallClock();
    const baseLoop = await server.request('loop');
    schedule.push(...(await server.request('beats')));
    // The window opens as engraving starts: the worker's start (Verovio's WebAssembly compiled)
    // is part of what a venue sees when a score loads mid-show.
    await server.request('loop');
    const loadFrom = wallClock();
    await server.request('start');
    await sleep(options.seconds * 1000);
    const loadTo = wallClock();
    const loadLoop = await server.request('loop');
    schedule.push(...(await server.request('beats')));
    const { passes } = await server.request('stop', undefined, 180_000);
    const pushes = viewers
      ? await viewers.request('report', { calm: [baseFrom, baseTo], storm: [loadFrom, loadTo] }, 60_000)
      : { calm: [], storm: [] };
    return {
      baseline: errorsIn(rx.arrivals, schedule, baseFrom, baseTo),
      loaded: errorsIn(rx.arrivals, schedule, loadFrom, loadTo),
      pushes: { baseline: pushes.calm, loaded: pushes.storm },
      loop: { baseline: baseLoop, loaded: loadLoop },
      passes,
    };
  } finally {
    await viewers?.stop();
    await server.stop();
    rx.close();
  }
}

const summary = (errors) => {
  const abs = errors.map(Math.abs);
  return {
    n: errors.length,
    median: median(errors),
    p99: percentile(abs, 99),
    worst: Math.max(...abs),
    over5: abs.filter((e) => e > 5).length,
  };
};

await runBench({
  name: 'bench:notation',
  usage: USAGE,
  parse,
  main: async (options, log) => {
    const work = await mkdtemp(path.join(tmpdir(), 'tutti-bench-notation-'));
    try {
      const engraving = [];
      for (const file of [...FILES, ...options.also]) {
        const runs = [];
        for (let r = 0; r < options.runs; r += 1) runs.push(await engraveOnce(work, file));
        const med = (k) => round(median(runs.map((x) => x[k])), 2);
        engraving.push({
          file: path.basename(file),
          parts: runs[0].parts,
          pages: runs[0].pages,
          ms: med('ms'),
          msPerPage: round(med('ms') / runs[0].pages, 1),
          gzMedianKB: med('gzMedian'),
          gzMaxKB: med('gzMax'),
        });
        log(`engraved ${file}`);
      }
      log(
        `load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} on ${cpus().length} cores`,
      );
      const timing = [];
      const pooled = { baseline: [], loaded: [] };
      const pushes = { baseline: [], loaded: [] };
      for (let r = 0; r < options.runs; r += 1) {
        // A folder per run: the passes' files (pass-0, pass-1, …) must never be in a cache already.
        const run = await timingRun(path.join(work, `timing-${r}`), options);
        timing.push({ baseline: summary(run.baseline), loaded: summary(run.loaded), loop: run.loop, passes: run.passes });
        pooled.baseline.push(...run.baseline);
        pooled.loaded.push(...run.loaded);
        pushes.baseline.push(...run.pushes.baseline);
        pushes.loaded.push(...run.pushes.loaded);
        log(`timing run ${r + 1}: ${run.passes} engraving pass(es) of ${options.file}`);
      }
      const beats = ['baseline', 'loaded'].map((w) => {
        const all = summary(pooled[w]);
        return {
          window: w === 'baseline' ? 'baseline (idle)' : `engraving ${options.file}`,
          n: all.n,
          median: round(all.median, 2),
          p99: round(all.p99, 2),
          worst: round(all.worst, 2),
          over5: all.over5,
          loopP99: round(Math.max(...timing.map((t) => t.loop[w].p99)), 2),
          loopMax: round(Math.max(...timing.map((t) => t.loop[w].max)), 2),
          cpu: round(median(timing.map((t) => t.loop[w].cpuMsPerS)), 1),
          wait: round(median(timing.map((t) => t.loop[w].waitMsPerS)), 1),
          pushP50: pushes[w].length ? round(percentile(pushes[w], 50), 1) : null,
          pushP99: pushes[w].length ? round(percentile(pushes[w], 99), 1) : null,
        };
      });
      const tables = [];
      printTable(
        tables,
        `Engraving every part and the full score in ${Object.keys(LAYOUTS).length} layouts, from scratch (median of ${options.runs})`,
        [
          { key: 'file', label: 'file' },
          { key: 'parts', label: 'parts' },
          { key: 'pages', label: 'pages' },
          { key: 'ms', label: 'whole file ms' },
          { key: 'msPerPage', label: 'ms/page' },
          { key: 'gzMedianKB', label: 'page KB gz (median)' },
          { key: 'gzMaxKB', label: 'page KB gz (max)' },
        ],
        engraving,
      );
      printTable(
        tables,
        `OSC beat error at a receiver, ms (arrival − the time the beat sounds; p99 and worst of |error|), ${options.bpm} bpm, ${options.seconds} s windows, beats of ${options.runs} runs pooled; the show's event-loop delay (worst run), its thread's CPU and wait for a CPU (median run)`,
        [
          { key: 'window', label: 'window' },
          { key: 'n', label: 'beats' },
          { key: 'median', label: 'median' },
          { key: 'p99', label: 'p99' },
          { key: 'worst', label: 'worst' },
          { key: 'over5', label: 'beats > 5 ms' },
          { key: 'loopP99', label: 'loop delay p99' },
          { key: 'loopMax', label: 'loop delay max' },
          { key: 'cpu', label: 'show thread CPU ms/s' },
          { key: 'wait', label: 'waiting for a CPU ms/s' },
          { key: 'pushP50', label: `push p50 (${options.viewers} WS)` },
          { key: 'pushP99', label: `push p99 (${options.viewers} WS)` },
        ],
        beats,
      );
      writeResults(options.out, {
        script: 'bench:notation',
        tables,
        data: { options: { ...options, out: undefined }, engraving, beats, timing },
      });
      log(`wrote ${options.out}`);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  },
});
