// Start-from with a count-in, loops and the rehearsal tempo in the engine (README.md, "Rehearsing"),
// on a fake clock: every click and beat is checked against the times the state announces.
import { createShowEngine } from '#core/score/engine.js';
import { countInEnd } from '#core/score/count-in.js';
import { beatInSegment } from '#core/score/segment.js';
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
