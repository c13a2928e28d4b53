// The vote-storm scenario (docs/how-to/load-test.md) through the real `artillery run` against a real
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

const PHONES = 6;

/** Resolves when `count` viewers are connected, or rejects after `ms` (a starved machine). */
async function viewersJoined(count, ms) {
  const until = Date.now() + ms;
  while (show.status().clients.total < count) {
    if (Date.now() > until) throw new Error(`only ${show.status().clients.total} of ${count} phones joined within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  // The show waits for its audience: it starts playing only once every phone is connected, so a
  // busy machine that is slow to start Artillery cannot make the phones miss the prompt.
  show = await startLoadShow({ scorePath: SCORE, autoplay: false });
  tmp = scratch();
  // 6 phones join over 2 s and stay 12 s: the first prompt opens at bar 3 (4 s after play) for 4 s.
  const running = runBriefly({
    file: 'vote-storm.yml',
    target: `${show.audienceUrl.replace(/^http/, 'ws')}/ws`,
    dir: tmp.dir,
    users: PHONES,
    ramp: 2,
    hold: 12,
  });
  await Promise.race([viewersJoined(PHONES, 60_000), running]);
  show.show.engine.play();
  outcome = await running;
}, 120_000);

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
