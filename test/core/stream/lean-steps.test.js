// "The action first, the look-ahead after" (issue 27; docs/explanation/clock-sync.md#the-flywheel): leanSteps splits an
// operator's action that brings new `ahead` chunks into a small lean update without them and the
// look-ahead right after, and leaves the window's own moves during plain play one update each.
// Real engine states of the load-test score, on a fake clock.

import { applyMergePatch, createMergePatch } from '#core/protocol/merge-patch.js';
import { deriveLeanState, leanSteps } from '#core/stream/lean-state.js';
import { engineOnFakeClock, loadTestScore } from '../../support/engine-on-fake-clock.js';

/** A vote as the venue's vote desk adds it to the state when a prompt opens (local-server/src/votes/vote-view.js). */
const VOTE = {
  id: 'which-way',
  key: 'which-way~mi2x0k8g',
  q: 'Which way?',
  options: [
    { id: 'left', label: 'Left' },
    { id: 'right', label: 'Right' },
  ],
  opens: 1_700_000_100_000,
  closes: 1_700_000_110_000,
  counts: [0, 0],
  total: 0,
};

/**
 * Play the load-test score; every full state the engine publishes (with `extra()` merged in, as
 * the venue merges the vote) is recorded with the lean state before it and its lean steps.
 */
function createShow() {
  /** @type {Record<string, unknown>} */
  let extra = {};
  let lean = null;
  const published = [];
  const { engine, clock } = engineOnFakeClock(loadTestScore(), (state) => {
    const full = { ...state, ...extra };
    const steps = leanSteps(lean, full);
    published.push({ previous: lean, full, steps });
    lean = steps.at(-1);
  });
  lean = deriveLeanState(null, engine.state());
  return {
    engine,
    clock,
    /** What the next `act()` publishes: its full state, the lean state before it and its steps. */
    act(fn) {
      const from = published.length;
      fn();
      expect(published.length).toBe(from + 1);
      return published[from];
    },
    setExtra: (next) => {
      extra = next;
    },
    published,
  };
}

/** The two steps of an action: the action without `ahead`, then the one-step lean state. */
function expectSplit({ previous, full, steps }, shows) {
  expect(steps).toHaveLength(2);
  const [action, lookAhead] = steps;
  expect(action.ahead).toBeUndefined();
  shows(action);
  // A state the show could have: no flywheel, so a phone has the beat and the current view.
  expect(action.position).toEqual(full.position);
  expect(action.tempo).toEqual(full.tempo);
  expect(action.view).toEqual(full.view);
  expect(lookAhead).toEqual(deriveLeanState(previous, full));
  expect(lookAhead.ahead).toEqual(full.ahead);
  // A phone applying both merge patches ends where the single one would have taken it.
  const first = createMergePatch(previous, action);
  // The old cues go (merge patch `ahead: null`) unless there were none (a play from a stop).
  expect(first.ahead).toBe(previous.ahead === undefined ? undefined : null);
  const both = applyMergePatch(applyMergePatch(previous, first), createMergePatch(action, lookAhead));
  expect(both).toEqual(applyMergePatch(previous, createMergePatch(previous, deriveLeanState(previous, full))));
  return { action, lookAhead, bytes: JSON.stringify(first).length };
}

test('a seek, a tempo change and a vote opening: the action without `ahead` first, then the look-ahead', () => {
  const show = createShow();
  show.act(() => show.engine.play());
  show.clock.advance(20_000);

  const seek = show.act(() => show.engine.seek(40, 1));
  expect(seek.previous.ahead).not.toEqual(seek.full.ahead);
  expectSplit(seek, (action) => expect(action.segment).toMatchObject({ bar: 40, beat: 1 }));
  show.clock.advance(5000);

  const tempo = show.act(() => show.engine.setTempo(150));
  const { bytes } = expectSplit(tempo, (action) => expect(action.segment).toMatchObject({ bpm: 150 }));
  // The tempo change alone is small enough to go out uncompressed (DEFLATE_THRESHOLD_BYTES, 1 KiB).
  expect(bytes).toBeLessThan(1024);
  show.clock.advance(5000);

  show.setExtra({ vote: VOTE });
  const vote = show.act(() => show.engine.seek(100, 1));
  expectSplit(vote, (action) => {
    expect(action.vote).toEqual(VOTE);
    expect(action.segment).toMatchObject({ bar: 100, beat: 1 });
  });
});

test('play from a stop splits too; a pause, which drops `ahead`, is one update', () => {
  const show = createShow();
  const play = show.act(() => show.engine.play());
  expectSplit(play, (action) => expect(action.transport).toBe('playing'));
  show.clock.advance(5000);
  const pause = show.act(() => show.engine.pause());
  expect(pause.steps).toEqual([deriveLeanState(pause.previous, pause.full)]);
  expect(pause.steps[0].transport).toBe('paused');
});

test('plain play: one lean state per publish, so no more lean updates than before', () => {
  const show = createShow();
  show.act(() => show.engine.play());
  const from = show.published.length;
  show.clock.advance(120_000);
  const playing = show.published.slice(from);
  expect(playing.length).toBeGreaterThan(200);
  for (const { previous, full, steps } of playing) expect(steps).toEqual([deriveLeanState(previous, full)]);
  // The window moved on several times meanwhile (new `ahead`, new `view`): still one update each.
  const moves = playing.filter(({ previous, steps }) => createMergePatch(previous.ahead, steps[0].ahead) !== undefined);
  expect(moves.length).toBeGreaterThanOrEqual(5);
  // A vote opening and its counts changing while the window stays: one update each.
  const voting = show.published.length;
  show.setExtra({ vote: VOTE });
  show.clock.advance(500);
  show.setExtra({ vote: { ...VOTE, counts: [1, 0], total: 1 } });
  show.clock.advance(500);
  const votes = show.published.slice(voting).filter(({ previous, full }) => createMergePatch(previous.vote, full.vote) !== undefined);
  expect(votes).toHaveLength(2);
  for (const { steps } of votes) expect(steps).toHaveLength(1);
});

test('with no previous lean state (a reset) there is one state: the snapshot', () => {
  const show = createShow();
  show.act(() => show.engine.play());
  show.clock.advance(2000);
  const full = show.published.at(-1).full;
  expect(leanSteps(null, full)).toEqual([deriveLeanState(null, full)]);
});
