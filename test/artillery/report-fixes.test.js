// Three load-test reporting defects: Artillery's "Log file" line named a temporary part file
// that no longer exists; `loadtest:report` with no file refused instead of opening the newest
// result; and a 6-user run got a "Tutti lower" verdict against ZScore's 200-client figure.
import { mkdtempSync, rmSync, writeFileSync, utimesSync, existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { echoWithResultPath } from '../../artillery/lib/part-path.js';
import { main as report } from '../../artillery/report.js';
import { readResult } from '../../artillery/lib/report/read-result.js';
import { comparisonRows } from '../../artillery/lib/report/zscore-figures.js';
import { renderReport } from '../../artillery/lib/report/render-html.js';

let dir;
beforeEach(() => {
  dir = mkdtempSync(join(os.tmpdir(), 'tutti-report-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A plain `artillery run -o` result of WebSocket viewers. */
const wsResult = (users, p99) => ({
  aggregate: {
    counters: {
      'vusers.created': users,
      'vusers.completed': users,
      'tutti.messages': users * 16,
      'tutti.received_bytes': users * 16 * 200,
    },
    summaries: {
      'tutti.push_latency_ms': {
        min: 1,
        max: p99 + 2,
        count: users * 16,
        mean: p99 / 3,
        p50: p99 / 3,
        median: p99 / 3,
        p75: p99 / 2,
        p90: p99 / 1.5,
        p95: p99 / 1.2,
        p99,
        p999: p99 + 1,
      },
    },
  },
  intermediate: [],
});

test("Artillery's line naming the part file names the result file instead", () => {
  const lines = [];
  const echo = echoWithResultPath('/r/zscore-1.json.ws.part.json', '/r/zscore-1.json', (l) => lines.push(l));
  echo('Log file: /r/zscore-1.json.ws.part.json');
  echo('All VUs finished. Total time: 12 seconds');
  expect(lines).toEqual(['Log file: /r/zscore-1.json', 'All VUs finished. Total time: 12 seconds']);
});

test('loadtest:report with no file renders the newest result (part files ignored)', () => {
  const older = join(dir, 'local-ws-older.json');
  const newer = join(dir, 'local-ws-newer.json');
  writeFileSync(older, JSON.stringify(wsResult(10, 9)));
  writeFileSync(newer, JSON.stringify(wsResult(20, 9)));
  writeFileSync(join(dir, 'local-ws-newest.json.part.json'), '{"partial":');
  utimesSync(older, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  const said = [];
  expect(report([], { resultsDir: dir, say: (l) => said.push(l) })).toBe(0);
  expect(said[0]).toBe(`Newest result: ${newer}`);
  expect(existsSync(join(dir, 'local-ws-newer.html'))).toBe(true);
  expect(existsSync(join(dir, 'local-ws-older.html'))).toBe(false);
  const empty = mkdtempSync(join(os.tmpdir(), 'tutti-report-empty-'));
  expect(report([], { resultsDir: empty, say: () => {} })).toBe(2);
  rmSync(empty, { recursive: true, force: true });
});

test('no verdict against the 200-client WebSocket figure for a run with far fewer users', () => {
  const rowFor = (users) =>
    comparisonRows(readResult(wsResult(users, 5), 'local-ws').runs, null).find((r) => r.topic === 'WebSocket push latency');
  expect(rowFor(6).verdict).toBe('fewer');
  expect(rowFor(200).verdict).toBe('better');
  const html = renderReport(readResult(wsResult(6, 5), 'local-ws'), { source: 'x.json' });
  const wsRow = /<tr><th scope="row">WebSocket push latency<\/th>.*?<\/tr>/.exec(html)[0];
  expect(wsRow).not.toMatch(/Tutti lower/);
  expect(wsRow).toMatch(/far fewer users: no verdict/);
});
