#!/usr/bin/env node
// `npm run bench:notation-join` (docs/reference/benchmarks.md#notation-join): --tablets tablets
// join at once over a simulated venue link (bench/lib/shaped-link.js: --mbit shared per
// direction, --rtt ms round trip) and each fetches what its part page needs for its first page
// (tablet-visit.js: page, script, style, cue table, bar map, page 1, music font). The server
// (part-server.js, its own process) has engraved the corpus --file already, as at a venue.
// Baseline, same run: one tablet alone on the same link. Parts are dealt round-robin, so a quartet
// has about a quarter of the tablets on each part and on the full score. A check with real
// rendering: one Chromium through the link, alone and as one of the tablets of a storm (30 real
// browsers would not fit on 2 cores: the others are simulated). Writes bench-results/notation-join.json.
//
//   npm run bench:notation-join [-- --tablets 30 --mbit 20 --rtt 30 --runs 3 --file NAME --no-chromium --out FILE]

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../../tools/chromium.js';
import { forkWorker } from '../lib/children.js';
import { runBench } from '../lib/cli.js';
import { printTable, writeResults } from '../lib/results-file.js';
import { startShapedLink } from '../lib/shaped-link.js';
import { median, percentile, round } from '../lib/stats.js';
import { tabletVisit } from './tablet-visit.js';

const CORPUS = fileURLToPath(new URL('../../test/fixtures/corpus/musicxml/', import.meta.url));
const SERVER = fileURLToPath(new URL('./part-server.js', import.meta.url));
const RESULTS = fileURLToPath(new URL('../../bench-results/notation-join.json', import.meta.url));
const LAYOUT = 'tablet-landscape';
const TABLET = { viewport: { width: 1180, height: 820 }, deviceScaleFactor: 1, hasTouch: true, isMobile: false };

const USAGE = `npm run bench:notation-join [-- --tablets 30 --mbit 20 --rtt 30 --runs 3 --file NAME --no-chromium --out FILE]
  --file NAME   a file in test/fixtures/corpus/musicxml (default the Mozart quartet: its first pages name the music font)\n`;

function parse(argv) {
  const options = {
    tablets: 30,
    mbit: 20,
    rtt: 30,
    runs: 3,
    file: 'Mozart_String_Quartet_in_G_K._387_1st_Mvmnt_excerpt.musicxml',
    chromium: true,
    out: RESULTS,
  };
  const bounds = { '--tablets': [1, 200], '--mbit': [1, 1000], '--rtt': [0, 1000], '--runs': [1, 9] };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    if (flag === '--no-chromium') {
      options.chromium = false;
      continue;
    }
    const value = argv[(i += 1)];
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
    if (flag === '--file' && /^[\w .,'()-]+\.(musicxml|xml|mxl)$/.test(value)) options.file = value;
    else if (flag === '--out') options.out = path.resolve(value);
    else if (flag in bounds) {
      const [min, max] = bounds[flag];
      const n = Number(value);
      if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} takes a whole number from ${min} to ${max}`);
      options[flag.slice(2)] = n;
    } else throw new Error(`unknown flag ${flag}\n${USAGE}`);
  }
  return options;
}

/** Percentiles of the tablets' times (ms). */
const spread = (values) => ({
  p50: round(percentile(values, 50), 0),
  p99: round(percentile(values, 99), 0),
  max: round(Math.max(...values), 0),
});

/** The simulated tablets of one storm, all starting now; parts dealt round-robin. */
const storm = (base, parts, count) =>
  Promise.all(Array.from({ length: count }, (_, i) => tabletVisit(base, parts[i % parts.length], LAYOUT)));

/** One real Chromium tablet: ms from navigation until page 1 is drawn (its image decoded). */
async function chromiumVisit(browser, base, part) {
  const context = await browser.newContext(TABLET);
  try {
    const page = await context.newPage();
    await page.goto(`${base}#${encodeURIComponent(part)}`);
    const drawn = await page.waitForFunction(
      () => {
        const shown = [...globalThis.document.querySelectorAll('#sheet .slot:not([hidden]) img')];
        return shown.length > 0 && shown.every((i) => /** @type {HTMLImageElement} */ (i).complete && i.naturalWidth > 0)
          ? performance.now()
          : false;
      },
      null,
      { polling: 'raf', timeout: 60_000 },
    );
    return Number(await drawn.jsonValue());
  } finally {
    await context.close();
  }
}

/** A fresh link (its queue empty) for one measurement. */
async function onLink(ready, options, fn) {
  const link = await startShapedLink({ targetPort: ready.port, mbit: options.mbit, rttMs: options.rtt });
  try {
    return { result: await fn(`${link.url}/part/${ready.partKey}/`), link: link.stats() };
  } finally {
    await link.close();
  }
}

await runBench({
  name: 'bench:notation-join',
  usage: USAGE,
  parse,
  main: async (options, log) => {
    const work = await mkdtemp(path.join(tmpdir(), 'tutti-bench-notation-join-'));
    const server = forkWorker(SERVER, { name: 'part server', args: ['--file', path.join(CORPUS, options.file), '--work', work] });
    try {
      const ready = await server.waitFor('ready', 180_000);
      const parts = ready.parts;
      log(`${options.file} engraved; ${options.tablets} tablets over ${options.mbit} Mbit/s, ${options.rtt} ms RTT`);
      const runs = [];
      for (let r = 0; r < options.runs; r += 1) {
        const alone = await onLink(ready, options, (base) => tabletVisit(base, parts[0], LAYOUT));
        const cpu0 = await server.request('cpu');
        const many = await onLink(ready, options, (base) => storm(base, parts, options.tablets));
        const cpu1 = await server.request('cpu');
        runs.push({
          alone: alone.result,
          storm: { ...spread(many.result.map((v) => v.ms)), text: spread(many.result.map((v) => v.textMs)) },
          bytesPerTablet: round(median(many.result.map((v) => v.bytes)) / 1024, 1),
          withFont: many.result.filter((v) => v.font).length,
          linkKB: round(many.link.down / 1024, 0),
          serverCpuMs: round((cpu1.user + cpu1.system - cpu0.user - cpu0.system) / 1000, 0),
        });
        log(`run ${r + 1}: alone ${round(alone.result.ms, 0)} ms; ${options.tablets} at once p99 ${runs[r].storm.p99} ms`);
      }
      let chromium = null;
      if (options.chromium) {
        const browser = await launchChromium();
        try {
          const alone = await onLink(ready, options, (base) => chromiumVisit(browser, base, parts[0]));
          const inStorm = await onLink(ready, options, (base) =>
            Promise.all([chromiumVisit(browser, base, parts[0]), storm(base, parts, options.tablets - 1)]),
          );
          chromium = {
            alone: round(alone.result, 0),
            inStorm: round(inStorm.result[0], 0),
            stormP99: spread(inStorm.result[1].map((v) => v.ms)).p99,
          };
        } finally {
          await browser.close();
        }
      }
      const med = (f) => round(median(runs.map(f)), 0);
      const rows = [
        {
          who: `1 tablet alone (${parts[0]}, baseline)`,
          p50: med((x) => x.alone.ms),
          p99: '',
          max: '',
          text: med((x) => x.alone.textMs),
          kb: round(median(runs.map((x) => x.alone.bytes)) / 1024, 1),
        },
        {
          who: `${options.tablets} tablets at once`,
          p50: med((x) => x.storm.p50),
          p99: med((x) => x.storm.p99),
          max: med((x) => x.storm.max),
          text: med((x) => x.storm.text.p99),
          kb: median(runs.map((x) => x.bytesPerTablet)),
        },
      ];
      if (chromium)
        rows.push(
          { who: 'Chromium alone (image drawn)', p50: chromium.alone, p99: '', max: '', text: '', kb: '' },
          { who: `Chromium as one of ${options.tablets}`, p50: chromium.inStorm, p99: '', max: '', text: '', kb: '' },
        );
      const tables = [];
      printTable(
        tables,
        `First page of ${options.file} (${LAYOUT}) over ${options.mbit} Mbit/s shared, ${options.rtt} ms RTT; ms from the first request, median of ${options.runs} runs`,
        [
          { key: 'who', label: 'tablets' },
          { key: 'p50', label: 'first page p50' },
          { key: 'p99', label: 'p99' },
          { key: 'max', label: 'max' },
          { key: 'text', label: 'page before its font (p99)' },
          { key: 'kb', label: 'KB per tablet (sent)' },
        ],
        rows,
      );
      process.stdout.write(
        `${runs.map((x, i) => `run ${i + 1}: ${x.withFont} of ${options.tablets} pages named the font; ${x.linkKB} KB down the link; server CPU ${x.serverCpuMs} ms`).join('\n')}\n` +
          (chromium ? `with Chromium among them, the simulated ${options.tablets - 1}: p99 ${chromium.stormP99} ms\n` : ''),
      );
      writeResults(options.out, {
        script: 'bench:notation-join',
        tables,
        data: { options: { ...options, out: undefined }, runs, chromium },
      });
      log(`wrote ${options.out}`);
    } finally {
      await server.stop();
      await rm(work, { recursive: true, force: true });
    }
  },
});
