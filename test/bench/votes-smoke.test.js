// Smoke test of `npm run bench:votes`: the whole benchmark (show server, edge worker on local
// workerd, voter processes, the console feed, the report) runs end to end with a few viewers per
// side, and every vote is counted exactly once. No timing assertions: figures come from the
// benchmark itself.
import { afterAll, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createBenchRunner } from '../support/bench-runner.js';

const runner = createBenchRunner(new URL('../../bench/votes/run.js', import.meta.url), 'votes.json');
const out = runner.out;
const runBench = (args, timeoutMs) => runner.run(args, timeoutMs);

afterAll(() => runner.cleanup());

test('60 venue and 60 edge viewers vote in a 1 s window: none lost, none doubled, the console saw the tally', async () => {
  const { code, output } = await runBench(
    ['--local', '60', '--edge', '60', '--window', '1000', '--per-process', '40', '--capacity', '25', '--out', out],
    170_000,
  );
  expect({ code, output }).toMatchObject({ code: 0 });
  const saved = JSON.parse(readFileSync(out, 'utf8'));
  const [venue, edge] = saved.summaries;
  // The printed table is kept for docs/results.md (tools/docs/bench-results.js).
  expect(saved).toMatchObject({ bench: 'bench:votes', command: expect.stringMatching(/^npm run bench:votes -- --local 60/) });
  expect(saved.tables.map((t) => t.cells.map((row) => row.slice(0, 2)))).toEqual([[['venue', '60']], [['edge', '60']]]);
  expect(venue.rows[0]).toMatchObject({ side: 'venue', viewers: 60, voted: 60, counted: 60, lost: 0, doubled: 0, ok: 66 });
  expect(edge.rows[1]).toMatchObject({ side: 'edge', viewers: 60, voted: 60, counted: 60, lost: 0, doubled: 0 });
  expect(edge.edgeRoot).toMatchObject({ total: 60 });
  // The result waited for the edge's sealed final count (edge-worker/src/votes/vote-seal.js).
  expect(edge.result.edge).toBe('final');
  expect(edge.edgeRoot.seal.last).toMatchObject({ total: 60 });
  expect(edge.edgeRoot.owners).toBeGreaterThanOrEqual(2); // 60 viewers on 3 shards, votes owned by several
  for (const summary of [venue, edge]) {
    expect(summary.consoleTallyCompleteAfterLastVoteMs).not.toBeNull();
    expect(summary.result).toMatchObject({ total: 60 });
    expect(summary.rows.find((r) => r.viewers > 0).calmP50).toBeGreaterThanOrEqual(0);
  }
  expect(output).toMatch(/beat p99 storm/);
}, 180_000);
