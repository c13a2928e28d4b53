// The vote-storm scenario (artillery/README.md) through the real `artillery run` against a real
// show server playing its score: every virtual phone votes on the prompt it sees, every vote is
// answered and counted once at the server.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { startLoadShow, scratch, runBriefly } from './helpers.js';
import { SCENARIOS } from '../../artillery/lib/catalog.js';

const SCORE = fileURLToPath(new URL('../../artillery/scores/vote-storm.score.json', import.meta.url));
let show;
let tmp;
let outcome;

beforeAll(async () => {
  show = await startLoadShow({ scorePath: SCORE });
  tmp = scratch();
  // 6 phones join over 2 s and stay 8 s: the first prompt opens at bar 3 (4 s in) for 4 s.
  outcome = await runBriefly({ file: 'vote-storm.yml', target: `${show.audienceUrl.replace(/^http/, 'ws')}/ws`, dir: tmp.dir, users: 6, ramp: 2, hold: 8 });
}, 90_000);

afterAll(async () => {
  await show?.close();
  tmp?.remove();
});

test('every phone votes once on the prompt it saw; every vote is answered and counted', async () => {
  const { result } = outcome;
  if (!result || outcome.exitCode !== 0) throw new Error(`artillery failed (exit ${outcome.exitCode}):\n${outcome.log.slice(-3000)}`);
  const sent = result.counters['tutti.votes_sent'];
  expect(sent).toBeGreaterThanOrEqual(6);
  expect(result.counters['tutti.votes_counted']).toBe(sent);
  expect(result.counters['tutti.votes_refused']).toBe(0);
  expect(result.summaries['tutti.vote_answer_ms'].count).toBe(sent);
  expect(result.counters['vusers.failed'] ?? 0).toBe(0);
  const exposition = await show.metrics.exposition();
  const counted = Number(/tutti_votes_total\{outcome="counted"\} (\d+)/.exec(exposition)?.[1]);
  expect(counted).toBe(sent);
  expect(outcome.checks.every((c) => c.ok)).toBe(true);
  expect(outcome.checks.map((c) => c.check)).toEqual(expect.arrayContaining(['tutti.votes_refused == 0', 'tutti.votes_counted > 0']));
});

test('the catalog plays the vote-storm score for --start-local', () => {
  expect(SCENARIOS['vote-storm'].score).toBe(SCORE);
});
