// `npm run loadtest` (artillery/run.js) and `npm run loadtest:report` (artillery/report.js) as a
// user runs them: as child processes. zscore-profile with --start-local covers the whole path —
// start a real `tutti serve`, run ZScore's three cases, write one result, stop the server —
// and the report is rendered in Chromium.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratch } from './helpers.js';
import { screenshotReport } from '../../artillery/lib/report/screenshot.js';

const RUN = fileURLToPath(new URL('../../artillery/run.js', import.meta.url));
const REPORT = fileURLToPath(new URL('../../artillery/report.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Run a script on this Node; resolves with its exit code and output (bounded by a deadline). */
function node(script, args, timeoutMs = 100_000) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let tmp;
let profile;
let resultFile;

beforeAll(async () => {
  tmp = scratch();
  resultFile = join(tmp.dir, 'zscore.json');
  profile = await node(RUN, ['zscore-profile', '--start-local', '--users', '6', '--ramp', '1', '--output', resultFile]);
}, 110_000);

afterAll(() => tmp?.remove());

describe('npm run loadtest', () => {
  test('without --target or --start-local it starts nothing and says what to start', async () => {
    const local = await node(RUN, ['local-sse']);
    expect(local.code).toBe(2);
    expect(local.stderr).toMatch(/nothing was started/);
    expect(local.stderr).toMatch(/npx tutti serve --port 8080 --autoplay --score scores\/union-rose-load\.score\.json/);
    expect(local.stderr).toMatch(/npm run loadtest -- local-sse --start-local/);
    const edge = await node(RUN, ['edge-ws']);
    expect(edge.code).toBe(2);
    expect(edge.stderr).toMatch(/npm run edge:dev/);
    expect(edge.stderr).toMatch(/--edge http:\/\/127\.0\.0\.1:8787 --edge-token/);
  });

  test('a mistake in the flags is one message and exit 2', async () => {
    const bad = await node(RUN, ['local-ws', '--users', 'many']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--users must be a whole number ≥ 1 \(got "many"\)/);
    expect(bad.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });

  test('an unreachable --target is reported before Artillery runs', async () => {
    const r = await node(RUN, ['local-ws', '--target', 'http://127.0.0.1:9', '--users', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/http:\/\/127\.0\.0\.1:9\/poll did not answer/);
  }, 20_000);

  test('zscore-profile --start-local runs the three cases, writes one result and stops its server', () => {
    if (profile.code !== 0) throw new Error(`exit ${profile.code}\n${profile.stderr.slice(-3000)}\n${profile.stdout.slice(-3000)}`);
    const pid = Number(/tutti serve at http:\/\/127\.0\.0\.1:\d+ \(pid (\d+)\)/.exec(profile.stderr)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
    expect(profile.stdout).toMatch(/All VUs finished/); // Artillery's own progress is shown
    // Artillery's "Log file" lines name the merged result, not the deleted part files.
    expect(profile.stdout).not.toMatch(/\.part\.json/);
    expect(profile.stdout).toContain(`Log file: ${resultFile}`);
    const result = JSON.parse(readFileSync(resultFile, 'utf8'));
    expect(result.tutti).toMatchObject({ scenario: 'zscore-profile', users: 6, exitCode: 0, started: { server: true, edge: false } });
    expect(Object.keys(result.parts)).toEqual(['pageload', 'ws', 'poll']);
    const { pageload, ws, poll } = result.parts;
    // Page load: app + the load score's media, about ZScore's 1.9 MB.
    expect(pageload.aggregate.counters['tutti.page_loads']).toBe(6);
    expect(pageload.aggregate.summaries['tutti.page_bytes'].mean).toBeGreaterThan(1.5e6);
    // WebSocket: 16 beats with everyone connected → about 16 pushes each.
    expect(ws.aggregate.summaries['tutti.push_latency_ms'].count).toBeGreaterThanOrEqual(6 * 12);
    expect(ws.aggregate.summaries['tutti.push_latency_ms'].count).toBeLessThanOrEqual(6 * 20);
    // Polling: 23 polls each after the page.
    expect(poll.aggregate.counters['plugins.metrics-by-endpoint.poll.codes.200']).toBe(6 * 23);
    for (const part of result.tutti.parts) {
      expect(part.checks.length).toBeGreaterThan(0);
      expect(part.checks.every((c) => c.ok)).toBe(true);
    }
  });
});

describe('npm run loadtest:report', () => {
  test('renders an offline HTML report with the ZScore comparison, charts and checks', async () => {
    const out = join(tmp.dir, 'report.html');
    const r = await node(REPORT, [resultFile, '--out', out]);
    expect(r.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/<table class="comparison">/);
    expect(html).toMatch(/WebSocket push latency/);
    expect(html).toMatch(/Page load \(first visit\)/);
    expect(html).toMatch(/Polling \(23 polls at 500 ms\)/);
    expect(html).toMatch(/p99 253 ms/); // ZScore's wired figure
    expect(html).not.toMatch(/<script|<link\b|(src|href)="https?:/i); // no scripts, nothing fetched (Chromium below confirms)
    const shot = join(tmp.dir, 'report.png');
    const facts = await screenshotReport(out, shot, { width: 1200 });
    expect(facts.title).toBe('Tutti load test · zscore-profile');
    expect(facts.comparisonRows).toBeGreaterThanOrEqual(5);
    expect(facts.svgCount).toBeGreaterThanOrEqual(6);
    expect(facts.requests).toEqual([]);
    expect(existsSync(shot)).toBe(true);
  }, 60_000);

  test('a plain `artillery run -o` file renders too', async () => {
    const plain = join(tmp.dir, 'plain.json');
    writeFileSync(plain, JSON.stringify(JSON.parse(readFileSync(resultFile, 'utf8')).parts.ws));
    const r = await node(REPORT, [plain]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(tmp.dir, 'plain.html'), 'utf8')).toMatch(/Push latency over time/);
  });

  test('a file that is not a result is refused with a reason', async () => {
    const bogus = join(tmp.dir, 'bogus.json');
    writeFileSync(bogus, '{"hello":1}');
    const r = await node(REPORT, [bogus]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not a load-test result: no "aggregate"/);
    const missing = await node(REPORT, [join(tmp.dir, 'nope.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no such file/);
  });
});
