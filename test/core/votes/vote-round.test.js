// The pure vote round (core/votes/vote-round.js): open → counting → closed, with and without an
// edge, the edge's running and final counts, a late final count kept beside the result.
import { expect, test } from '@jest/globals';
import { createVoteRound, judgeVote } from '#core/votes/vote-round.js';
import { createTally, isAccepted, changesTally } from '#core/votes/tally.js';

const prompt = {
  id: 'p',
  question: 'Which?',
  options: [
    { id: 'a', label: 'A' },
    { id: 'b', label: 'B' },
  ],
  open: 0,
  close: 8,
  targets: [null, null],
  targetEnds: [null, null],
};
const dev = (n) => `device-${String(n).padStart(12, '0')}`;

test('one vote per device; a changed vote moves; a wrong key or option is refused', () => {
  const round = createVoteRound({ prompt, opens: 1000, closes: 5000 });
  const vote = (device, option, key = round.key) => round.cast({ key, option, device });
  expect(vote(dev(1), 'a')).toBe('counted');
  expect(vote(dev(1), 'a')).toBe('repeat');
  expect(vote(dev(1), 'b')).toBe('changed');
  expect(vote(dev(2), 'c')).toBe('unknown_option');
  expect(vote(dev(3), 'a', 'p~zz')).toBe('closed');
  expect(round.counts()).toEqual([0, 1]);
});

test('without an edge the result is decided when votes stop; votes after it are closed', () => {
  const round = createVoteRound({ prompt, opens: 1000, closes: 5000 });
  round.cast({ key: round.key, option: 'b', device: dev(1) });
  expect(round.stop({ edgeOn: false, now: 5300 })).toEqual({ closed: 'off' });
  expect(round.phase()).toBe('closed');
  expect(round.winner()).toBe(1);
  expect(round.cast({ key: round.key, option: 'a', device: dev(2) })).toBe('closed');
});

test('with an edge the result waits for its final count, which is added to the venue', () => {
  const round = createVoteRound({ prompt, opens: 1000, closes: 5000 });
  round.cast({ key: round.key, option: 'b', device: dev(1) });
  expect(round.edgeReport({ key: round.key, counts: [1, 0], total: 1 }, 4000)).toEqual({ applied: true });
  expect(round.stop({ edgeOn: true, now: 5300 })).toEqual({ waitEdge: true });
  expect(round.phase()).toBe('counting');
  expect(round.edgeReport({ key: round.key, counts: [3, 0], total: 3, final: true }, 8000)).toEqual({ applied: true, closed: 'final' });
  expect(round.counts()).toEqual([3, 1]);
  expect(round.winner()).toBe(0);
});

test('a final count that comes after a timed-out result is kept beside it, not added', () => {
  const round = createVoteRound({ prompt, opens: 1000, closes: 5000 });
  round.edgeReport({ key: round.key, counts: [0, 2], total: 2 }, 4000);
  round.stop({ edgeOn: true, now: 5300 });
  expect(round.edgeTimedOut(25_000)).toEqual({ closed: 'timeout' });
  const late = round.edgeReport({ key: round.key, counts: [9, 2], total: 11, final: true }, 26_000);
  expect(late).toEqual({ applied: false, late: { counts: [9, 2], total: 11, afterMs: 1000 } });
  expect(round.counts()).toEqual([0, 2]);
  expect(round.edgeOutcome()).toBe('timeout');
});

test("bad edge counts are read as zeros; a tempo change moves only an open round's close", () => {
  const round = createVoteRound({ prompt, opens: 1000, closes: 5000 });
  round.edgeReport({ key: round.key, counts: [-1, 'x'], total: 'many' }, 2000);
  expect(round.counts()).toEqual([0, 0]);
  expect(round.moveClose(5000.5)).toBe(false);
  expect(round.moveClose(6000)).toBe(true);
  round.stop({ edgeOn: false, now: 6300 });
  expect(round.moveClose(7000)).toBe(false);
});

test('judgeVote and the outcome predicates are the one rule venue and edge apply', () => {
  const tally = createTally(2);
  expect(judgeVote({ accepting: false, optionIds: ['a'], tally }, { option: 'a', device: dev(1) })).toBe('closed');
  expect(judgeVote({ accepting: true, optionIds: ['a', 'b'], tally }, { option: 'b', device: dev(1) })).toBe('counted');
  expect(['counted', 'changed', 'repeat'].every(isAccepted)).toBe(true);
  expect(['closed', 'unknown_option', 'full'].some(isAccepted)).toBe(false);
  expect(changesTally('repeat')).toBe(false);
});
