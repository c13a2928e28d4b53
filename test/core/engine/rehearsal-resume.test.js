// Crash resume keeps the rehearsal loop (README.md, "Crash resume"): the resume point carries the
// loop (range, passes, pass, releasing); a new engine on a later clock comes back on the pass that
// should be sounding now, on the same beat grid, and goes on round; a loop whose passes ran out
// while the server was down is over, the show played on past it. A running count-in comes back as
// a pause on its start beat. Fake clock; 12 bars of 4/4 at 120 bpm (a beat is 500 ms).
import { createShowEngine } from '#core/score/engine.js';
import { createFakeClock } from '../../support/fake-clock.js';
import { fourFourScore } from '../../support/scores.js';

const score = fourFourScore({ bars: 12, bpm: 120 });
const BEAT = 500;
/** Bars 3–4: beats 8 up to 16, one pass is 4 s. */
const RANGE = { start: 8, end: 16 };

function setup() {
  const clock = createFakeClock();
  const beats = [];
  const engine = createShowEngine({
    score,
    now: clock.now,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
    onBeat: (b) => beats.push(b),
  });
  return { clock, engine, beats };
}

/** Save a point the way the resume file does (JSON), then resume it `downMs` later in a new engine. */
function crash(first, downMs) {
  const point = JSON.parse(JSON.stringify(first.engine.resumePoint()));
  const second = setup();
  second.clock.advance(first.clock.now() - second.clock.now() + downMs);
  expect(second.engine.resumeProblem(point)).toBeNull();
  expect(second.engine.resumeFrom(point)).toBe(true);
  return { point, second };
}

test('a loop until released comes back on the pass sounding now, on the same grid, and goes round', () => {
  const first = setup();
  const t0 = first.clock.now();
  first.engine.setLoop({ ...RANGE, passes: null });
  first.engine.startFrom(RANGE.start); // beat 8 sounds at t0 + 300
  first.clock.advance(2000);
  const { point, second } = crash(first, 9000); // back at t0 + 11 s: 10.7 s after beat 8 of pass 1
  expect(point.loop).toEqual({ ...RANGE, pass: 1, passes: null, releasing: false });
  // Pass 3 began at t0 + 8300; 2.7 s into it beat 13 sounds, and beat 14 (one lookahead on) is published.
  expect(second.engine.status()).toMatchObject({
    transport: 'playing',
    loop: { pass: 3, of: null, releasing: false },
    position: { index: 14 },
  });
  second.clock.advance(2000);
  expect(second.beats.map((b) => b.index)).toEqual([14, 15, 8, 9, 10]);
  // Every beat on the old grid: beat 8 of pass 1 at t0 + 300, a beat every 500 ms since.
  for (const b of second.beats) expect(Number.isInteger((b.at - (t0 + 300)) / BEAT)).toBe(true);
  expect(second.beats.map((b) => b.at - t0)).toEqual([11300, 11800, 12300, 12800, 13300]);
  expect(second.engine.status().loop.pass).toBe(4);
});

test('a loop whose last pass ended while the server was down is over: the show played on past it', () => {
  const first = setup();
  const t0 = first.clock.now();
  first.engine.setLoop({ ...RANGE, passes: 2 });
  first.engine.startFrom(RANGE.start);
  first.clock.advance(2000);
  const { second } = crash(first, 10_000); // t0 + 12 s: pass 2 began at t0 + 4300 and ended at t0 + 8300
  // Beat 23 sounds; beat 24, one lookahead on, is published.
  expect(second.engine.status()).toMatchObject({ transport: 'playing', loop: null, position: { index: 24 } });
  second.clock.advance(600);
  expect(second.beats.map((b) => [b.index, b.at - t0])).toEqual([
    [24, 12300],
    [25, 12800],
  ]);
});

test('a released loop inside its pass comes back released and leaves at its end', () => {
  const first = setup();
  first.engine.setLoop({ ...RANGE, passes: null });
  first.engine.startFrom(RANGE.start);
  first.clock.advance(5000); // pass 2
  first.engine.releaseLoop();
  const { second } = crash(first, 1000);
  expect(second.engine.status().loop).toMatchObject({ pass: 2, releasing: true });
  second.clock.advance(3000);
  expect(second.beats.map((b) => b.index).slice(-3)).toEqual([16, 17, 18]);
  expect(second.engine.status().loop).toBeNull();
});

test('a paused show in a loop comes back paused with its loop, pass and rehearsal tempo', () => {
  const first = setup();
  first.engine.setTempoPercent(80);
  first.engine.setLoop({ ...RANGE, passes: 3 });
  first.engine.startFrom(RANGE.start);
  first.clock.advance(6000); // pass 2 at 80 %: a pass lasts 5 s
  first.engine.pause();
  const { second } = crash(first, 60_000);
  expect(second.engine.status()).toMatchObject({
    transport: 'paused',
    loop: { pass: 2, of: 3 },
    tempoPercent: 80,
    tempo: 96,
    position: { index: first.engine.status().position.index },
  });
});

test('a count-in that was running comes back as a pause on its start beat, without the count-in', () => {
  const first = setup();
  first.engine.startFrom(16, { countInBeats: 4 });
  first.clock.advance(700);
  const { point, second } = crash(first, 500);
  expect(point.countingIn).toBe(true);
  expect(second.engine.status()).toMatchObject({ transport: 'paused', countIn: null, position: { index: 16 } });
  second.engine.play();
  second.clock.advance(400);
  expect(second.beats[0]).toMatchObject({ index: 16, bar: 5, beat: 1 });
});

test('a saved loop that this score cannot have is refused with a reason', () => {
  const first = setup();
  first.engine.setLoop({ ...RANGE, passes: 2 });
  const point = first.engine.resumePoint();
  const problem = (loop) => setup().engine.resumeProblem({ ...point, loop });
  expect(problem({ ...point.loop, end: 99 })).toMatch(/loop.end 99/);
  expect(problem({ ...point.loop, pass: 3 })).toMatch(/loop.pass 3/);
  expect(problem({ ...point.loop, passes: 0 })).toMatch(/loop.passes 0/);
  expect(problem({ ...point.loop, releasing: 'yes' })).toMatch(/releasing/);
  expect(problem('loop')).toMatch(/not an object/);
  expect(setup().engine.resumeProblem({ ...point, countingIn: 1 })).toMatch(/countingIn/);
  expect(setup().engine.resumeProblem({ ...point, tempoPercent: 80 })).toMatch(/tempoPercent 80 is not the tempoFactor 1/);
  expect(problem(null)).toBeNull();
});
