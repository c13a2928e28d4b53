// The phones' flywheel across a rehearsal loop point (docs/how-to/rehearse.md#rehearsing): the real engine on
// a fake clock plays a loop; a viewer that applies each published state (after a network delay)
// and asks the flywheel plan (web/audience/src/flywheel-plan.js, core/client/flywheel.js) what to
// show every few ms must show exactly the beats the server played — none twice, none out of order,
// each at its time — and keep going round the loop when the network is gone.
import { createShowEngine } from '#core/engine/engine.js';
import { upcomingCuesLooped, clickFor, beatsAhead } from '#core/client/part-plan.js';
import { createFlywheelPlan } from '../../../web/audience/src/flywheel-plan.js';
import { createFakeClock } from '../../support/fake-clock.js';
import { fourFourScore } from '../../support/scores.js';

const STEP_MS = 5;

/** Play bars 3–4 (beats 8–15) in a loop at `bpm`; returns the states and beats with their publish times. */
function playLoop({ bpm, passes, ms }) {
  const clock = createFakeClock();
  const states = [];
  const beats = [];
  const engine = createShowEngine({
    score: fourFourScore({ bars: 12, bpm }),
    now: clock.now,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
    onState: (s) => states.push({ state: structuredClone(s), at: clock.now() }),
    onBeat: (b) => beats.push(b),
  });
  engine.setLoop({ start: 8, end: 16, passes });
  engine.startFrom(8);
  clock.advance(ms);
  return { states, beats, start: states[0].at, end: clock.now() };
}

/** A viewer: states arrive `delay` ms after they were published (none after `cutAt`); returns what it showed, when. */
function watch({ states, start, end }, { delay, cutAt = Infinity }) {
  const plan = createFlywheelPlan();
  const shown = [];
  let next = 0;
  let first = true;
  for (let t = start; t <= end; t += STEP_MS) {
    while (next < states.length && states[next].at + delay <= t) {
      if (states[next].at < cutAt) {
        plan.update(states[next].state, first);
        first = false;
      }
      next += 1;
    }
    const { show } = plan.beat(t);
    if (show) shown.push({ index: show.index, at: show.at, bar: show.bar, beat: show.beat, seen: t });
  }
  return shown;
}

test.each([
  ['120 bpm, 20 ms network', 120, 20],
  ['240 bpm (a beat shorter than the lookahead), 20 ms network', 240, 20],
  ['300 bpm, 60 ms network', 300, 60],
])('%s: every beat played is shown once, in order, at its time, across each loop point', (_, bpm, delay) => {
  const played = playLoop({ bpm, passes: 3, ms: 40 * (60000 / bpm) });
  const shown = watch(played, { delay });
  const expected = played.beats.filter((b) => b.at <= played.end - STEP_MS);
  expect(shown.map((s) => [s.index, s.at])).toEqual(expected.map((b) => [b.index, b.at]));
  // Three passes of 8, then the show goes on from bar 5.
  expect(shown.slice(0, 28).map((s) => s.index)).toEqual(
    [...Array(3)].flatMap(() => [8, 9, 10, 11, 12, 13, 14, 15]).concat([16, 17, 18, 19]),
  );
  for (const s of shown) expect(s.seen - s.at).toBeLessThan(STEP_MS + 0.001);
  for (let k = 1; k < shown.length; k += 1) expect(shown[k].at).toBeGreaterThan(shown[k - 1].at);
});

test('with the network gone before the loop point, the viewer goes round the loop on its own', () => {
  const bpm = 120;
  const played = playLoop({ bpm, passes: null, ms: 30 * 500 });
  // The last state the viewer hears is from beat 12 (pass 1); pass 2 it computes from `segment.then`.
  const cutAt = played.beats.find((b) => b.index === 12).at - 300 + 1;
  const shown = watch(played, { delay: 20, cutAt });
  const secondPass = played.beats.filter((b) => b.index >= 8).slice(8, 16);
  expect(secondPass.map((b) => b.index)).toEqual([8, 9, 10, 11, 12, 13, 14, 15]);
  for (const b of secondPass) expect(shown).toContainEqual(expect.objectContaining({ index: b.index, at: b.at }));
  // Only the server knows what comes after the next pass's end: the viewer stops there, never jumps on.
  expect(Math.max(...shown.map((s) => s.at))).toBeLessThanOrEqual(secondPass.at(-1).at);
});

describe('the part page across a loop point', () => {
  // Cues at beat 10 (bar 3 beat 3, inside the loop) and 20 (bar 6 beat 1, after it); the loop is beats 8–15.
  const cues = [
    { i: 10, bar: 3, beat: 3, part: null, address: '/cue', args: ['enter'] },
    { i: 20, bar: 6, beat: 1, part: null, address: '/cue', args: ['later'] },
  ];
  const loop = (passesAfter) => ({ start: 8, end: 16, passesAfter });

  test('the countdown to the next cue runs on into the next pass, then past the loop after the last', () => {
    expect(upcomingCuesLooped(cues, 14, 3, loop(1)).map((c) => [c.i, c.inBeats])).toEqual([
      [10, 4],
      [20, 14],
    ]);
    expect(upcomingCuesLooped(cues, 14, 3, loop(0)).map((c) => [c.i, c.inBeats])).toEqual([[20, 6]]);
    expect(upcomingCuesLooped(cues, 9, 4, loop(Infinity)).map((c) => [c.i, c.inBeats])).toEqual([
      [10, 1],
      [10, 9],
      [10, 17],
      [10, 25],
    ]);
    // Outside the loop's range it is the plain countdown.
    expect(upcomingCuesLooped(cues, 4, 1, loop(2)).map((c) => [c.i, c.inBeats])).toEqual([[10, 6]]);
  });

  test("the click counts in a cue of the next pass across the loop's end", () => {
    // Beat 15 is bar 4 beat 4; the cue at beat 10 of the next pass is 3 beats away: count-in beat 2 of 4.
    expect(clickFor({ index: 15, bar: 4, beat: 4, beats: 4, at: 0 }, cues, loop(1)).countIn).toBe(2);
    expect(clickFor({ index: 15, bar: 4, beat: 4, beats: 4, at: 0 }, cues, loop(0)).countIn).toBeNull();
  });

  test("the beats clicked ahead follow the segment's `then` round the loop", () => {
    const played = playLoop({ bpm: 120, passes: 2, ms: 100 });
    const { segment } = played.states.at(-1).state;
    const ahead = beatsAhead(segment, segment.at + 6 * 500 + 1, 1200);
    expect(ahead.map((b) => b.index)).toEqual([15, 8]);
    expect(ahead[1].at).toBe(segment.then.at);
  });
});
