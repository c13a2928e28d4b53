// The shared beat-window rule (core/votes/beat-window.js) for votes and reactions: opening on
// the first beat or a seek's landing beat, following tempo, dropping on a break in the beats.
import { expect, test } from '@jest/globals';
import { createBeatWindow } from '#core/votes/beat-window.js';

const W = { open: 4, close: 8 };
const at = (index, bpm = 120) => index * (60_000 / bpm);
const windowAt = (index) => (W.open <= index && index < W.close ? W : null);

function follower(endsWithWindow, bpm = { now: 120 }) {
  return createBeatWindow({ windowAt, beatTime: (index) => at(index, bpm.now), endsWithWindow });
}

test('a window opens on its first beat, not on a later beat of a continuous run', () => {
  const bw = follower(true);
  for (let i = 0; i < 4; i += 1) expect(bw.beat({ index: i, at: at(i) }).opened).toBeNull();
  const step = bw.beat({ index: 4, at: at(4) });
  expect(step.opened).toMatchObject({ window: W, opens: at(4), closes: at(8), stage: 'following' });
});

test('a seek landing inside a window opens it; a break in the beats drops a following window', () => {
  const bw = follower(false);
  expect(bw.beat({ index: 6, at: 0 }).opened?.window).toBe(W); // first beat after play, inside
  const step = bw.beat({ index: 1, at: 0 }); // a seek back out of it
  expect(step).toMatchObject({ dropped: true, opened: null });
  expect(bw.current()).toBeNull();
});

test('a tempo change moves the close of a following window', () => {
  const bpm = { now: 120 };
  const bw = follower(false, bpm);
  bw.beat({ index: 4, at: at(4) });
  bpm.now = 60;
  const step = bw.beat({ index: 5, at: at(5) });
  expect(step.moved).toBe(true);
  expect(bw.current()?.closes).toBe(at(8, 60));
});

test('reactions end with their beats; a vote round outlives them until its owner settles it', () => {
  const reaction = follower(true);
  const vote = follower(false);
  for (const bw of [reaction, vote]) for (let i = 4; i <= 8; i += 1) bw.beat({ index: i, at: at(i) });
  expect(reaction.current()).toBeNull();
  expect(vote.current()?.stage).toBe('following');
});

test('a held window is not opened again by a seek into it; a done one is', () => {
  const bw = follower(false);
  bw.beat({ index: 4, at: at(4) });
  bw.settle('held');
  expect(bw.beat({ index: 5, at: at(5) })).toMatchObject({ dropped: false, opened: null, moved: false });
  expect(bw.beat({ index: 4, at: at(4) }).opened).toBeNull(); // seek back: still counting
  bw.settle('done');
  expect(bw.beat({ index: 4, at: 99 }).opened).toMatchObject({ opens: 99, stage: 'following' });
});

test('after a transport stop the next beat starts a new run', () => {
  const bw = follower(true);
  bw.beat({ index: 3, at: at(3) });
  bw.drop({ transport: true });
  expect(bw.beat({ index: 4, at: at(4) }).opened).not.toBeNull(); // index 4 is the window's first beat anyway
  bw.drop({ transport: true });
  expect(bw.beat({ index: 5, at: at(5) }).opened?.window).toBe(W); // index 5 is not: a new run
});
