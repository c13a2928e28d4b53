// Start-from with a count-in, loops and the rehearsal tempo in the engine (docs/how-to/rehearse.md#rehearsing),
// and a loop through a crash resume (docs/how-to/venue-server-unattended.md#crash-resume),
// on a fake clock: every click and beat is checked against the times the state announces.
import { createShowEngine } from '#core/engine/engine.js';
import { countInEnd } from '#core/engine/count-in.js';
import { beatInSegment } from '#core/engine/segment.js';
import { createFakeClock } from '../../support/fake-clock.js';
import { fourFourScore } from '../../support/scores.js';

function setup(score = fourFourScore({ bars: 12, bpm: 120 })) {
  const clock = createFakeClock();
  const beats = [];
  const states = [];
  const clicks = [];
  const transports = [];
  const engine = createShowEngine({
    score,
    now: clock.now,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
    onBeat: (b) => beats.push({ ...b, publishedAt: clock.now() }),
    onState: (s) => states.push(s),
    onCountIn: (c) => clicks.push({ ...c, publishedAt: clock.now() }),
    onTransport: (t) => transports.push(t),
  });
  return { clock, engine, beats, states, clicks, transports };
}

describe('count-in', () => {
  test('N clicks one beat apart, each published one lookahead early, then the start beat one beat after the last', () => {
    const { clock, engine, beats, states, clicks } = setup();
    const t0 = clock.now();
    engine.startFrom(engine.timeline().indexOf(5, 1), { countInBeats: 8, audience: true });
    const c = states.at(-1).countIn;
    expect(c).toEqual({ from: { bar: 5, beat: 1, index: 16 }, beats: 8, perBar: 4, beatMs: 500, at: t0 + 300, audience: true });
    expect(states.at(-1).transport).toBe('stopped');
    expect(states.at(-1).position).toMatchObject({ bar: 5, beat: 1 });
    clock.advance(6000);
    expect(clicks.map((k) => [k.n, k.of, k.at])).toEqual(Array.from({ length: 8 }, (_, k) => [k + 1, 8, t0 + 300 + k * 500]));
    for (const k of clicks) expect(k.at - k.publishedAt).toBeCloseTo(300, 6);
    expect(beats[0]).toMatchObject({ bar: 5, beat: 1, at: countInEnd(c) });
    expect(beats[0].at - beats[0].publishedAt).toBeCloseTo(300, 6);
    expect(beats[1].at - beats[0].at).toBe(500);
    const playing = states.find((s) => s.transport === 'playing');
    expect(playing.countIn).toBeUndefined();
    expect(playing.segment).toMatchObject({ index: 16, at: countInEnd(c) });
  });

  test('a stop, pause or seek during the count-in cancels it; no beat follows', () => {
    for (const cancel of ['stop', 'pause', 'seek']) {
      const { clock, engine, beats, clicks } = setup();
      engine.startFrom(8, { countInBeats: 4 });
      clock.advance(700);
      if (cancel === 'seek') engine.seek(2, 1);
      else engine[cancel]();
      clock.advance(5000);
      expect(clicks.at(-1)).toMatchObject({ cancelled: true, reason: expect.any(String) });
      expect(clicks.filter((k) => 'n' in k).length).toBeLessThan(4);
      expect(beats).toEqual([]);
      expect(engine.state().countIn).toBeUndefined();
    }
  });

  test('a count-in from a playing show pauses it first, at the new start', () => {
    const { clock, engine, transports, states } = setup();
    engine.play();
    clock.advance(2000);
    engine.startFrom(0, { countInBeats: 4 });
    expect(transports.slice(-1)).toEqual(['paused']);
    expect(states.at(-1).position.index).toBe(0);
    clock.advance(3000);
    expect(engine.status().transport).toBe('playing');
  });

  test('without a count-in, start-from is a seek and play', () => {
    const { clock, engine, beats } = setup();
    engine.startFrom(12);
    clock.advance(400);
    expect(beats[0]).toMatchObject({ bar: 4, beat: 1, index: 12 });
    expect(() => engine.startFrom(48)).toThrow(/start must be a beat/);
  });
});

describe('loop', () => {
  test('bars 3–4 played 3 times: the jump back is published like a beat, pass counts, then the show goes on', () => {
    const { clock, engine, beats, states } = setup();
    engine.setLoop({ start: 8, end: 16, passes: 3 });
    engine.startFrom(8);
    clock.advance(16_000);
    const indexes = beats.slice(0, 28).map((b) => b.index);
    const range = [8, 9, 10, 11, 12, 13, 14, 15];
    expect(indexes).toEqual([...range, ...range, ...range, 16, 17, 18, 19]);
    // No gap in time across the loop points: every beat 500 ms after the one before.
    for (let k = 1; k < 28; k += 1) expect(beats[k].at - beats[k - 1].at).toBeCloseTo(500, 6);
    for (const b of beats) expect(b.at - b.publishedAt).toBeLessThanOrEqual(300);
    const passOf = (k) => states.find((s) => s.position?.index === beats[k].index && s.position.at === Math.round(beats[k].at))?.loop?.pass;
    expect([passOf(0), passOf(8), passOf(16)]).toEqual([1, 2, 3]);
    expect(states.find((s) => s.position?.index === 16)?.loop).toBeUndefined();
  });

  test('the segment stops at the loop end and says which segment follows, on the clock the beats keep', () => {
    const { clock, engine, beats, states } = setup();
    engine.setLoop({ start: 8, end: 16, passes: null });
    engine.startFrom(8);
    clock.advance(100);
    const seg = states.at(-1).segment;
    expect(seg).toMatchObject({ index: 8, until: 16, end: false });
    expect(seg.then).toMatchObject({ index: 8, until: 16, bar: 3, beat: 1 });
    expect(seg.then.at).toBeCloseTo(beatInSegment(seg, 16).at, 6);
    clock.advance(8000);
    expect(beats.filter((b) => b.index === 8).map((b) => b.at)).toEqual([seg.at, seg.then.at, seg.then.at + 4000]);
    // Released: the pass being played is the last; the segment no longer says what follows.
    engine.releaseLoop();
    const released = states.at(-1);
    expect(released.loop.releasing).toBe(true);
    expect(released.segment.then).toBeUndefined();
    clock.advance(5000);
    const after = beats.filter((b) => b.publishedAt > clock.now() - 5000).map((b) => b.index);
    expect(after.some((i) => i >= 16)).toBe(true);
    expect(engine.state().loop).toBeUndefined();
  });

  test('the ahead window stops at the loop end', () => {
    const score = fourFourScore({
      bars: 12,
      cues: [
        { at: { bar: 3, beat: 1 }, view: { text: 'three' } },
        { at: { bar: 6, beat: 1 }, view: { text: 'six' } },
      ],
    });
    const { clock, engine, states } = setup(score);
    engine.setLoop({ start: 8, end: 16 });
    engine.startFrom(8);
    clock.advance(100);
    const items = Object.values(states.at(-1).ahead).flatMap((c) => c.items.map((i) => i.i));
    expect(items).toEqual([8]);
  });

  test('a seek or start past the loop forgets it; before it, the show plays into the loop', () => {
    const { clock, engine, beats } = setup();
    engine.setLoop({ start: 8, end: 16, passes: 2 });
    engine.startFrom(4);
    clock.advance(14 * 500);
    expect(beats.map((b) => b.index).slice(0, 14)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 8, 9]);
    engine.seek(6, 1);
    expect(engine.state().loop).toBeUndefined();
    engine.setLoop({ start: 8, end: 16 });
    engine.startFrom(30);
    expect(engine.loopPass()).toBeNull();
  });

  test('no branch while a loop is set; stop clears the loop', () => {
    const { clock, engine } = setup();
    engine.setLoop({ start: 8, end: 16, passes: 2 });
    engine.startFrom(8);
    clock.advance(1000);
    expect(engine.jumpAtNextBar(40)).toBeNull();
    expect(engine.loopPass()).toBe(1);
    engine.stop();
    expect(engine.loopPass()).toBeNull();
    expect(() => engine.setLoop({ start: 8, end: 8 })).toThrow(/loop must end after/);
  });
});

describe('rehearsal tempo', () => {
  test('80 % scales the written tempo and is in the state; a bpm override forgets it', () => {
    const { clock, engine, states, beats } = setup();
    engine.setTempoPercent(80);
    expect(states.at(-1).tempoPercent).toBe(80);
    engine.play();
    clock.advance(3000);
    expect(beats[1].at - beats[0].at).toBeCloseTo(625, 6);
    expect(states.at(-1).tempo).toBe(96);
    engine.setTempo(120);
    expect(states.at(-1).tempoPercent).toBeUndefined();
    expect(() => engine.setTempoPercent(5)).toThrow(/percent must be/);
    expect(() => engine.setTempoPercent(Number.NaN)).toThrow(/percent must be/);
  });
});

// Crash resume keeps the rehearsal loop (docs/how-to/venue-server-unattended.md#crash-resume): the resume point carries the
// loop (range, passes, pass, releasing); a new engine on a later clock comes back on the pass that
// should be sounding now, on the same beat grid, and goes on round; a loop whose passes ran out
// while the server was down is over, the show played on past it. A running count-in comes back as
// a pause on its start beat. 12 bars of 4/4 at 120 bpm (a beat is 500 ms).
describe('crash resume', () => {
  const BEAT = 500;
  /** Bars 3–4: beats 8 up to 16, one pass is 4 s. */
  const RANGE = { start: 8, end: 16 };

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
});
