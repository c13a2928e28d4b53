import { createShowEngine, EngineError } from '#core/engine/engine.js';
import { createTimeline } from '#core/score/timeline.js';
import { createFakeClock } from '../../support/fake-clock.js';
import { fourFourScore } from '../../support/scores.js';

function setup(score, lookaheadMs = 300) {
  const clock = createFakeClock();
  const beats = [];
  const states = [];
  const oscCues = [];
  const transports = [];
  const engine = createShowEngine({
    score,
    lookaheadMs,
    now: clock.now,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
    onBeat: (b) => beats.push({ ...b, publishedAt: clock.now() }),
    onState: (s) => states.push(s),
    onOscCue: (c) => oscCues.push({ ...c, publishedAt: clock.now() }),
    onTransport: (t) => transports.push(t),
  });
  return { clock, engine, beats, states, oscCues, transports };
}

describe('show engine', () => {
  test('after an hour of playing, beat times are off by < 1 ms from the tempo map', () => {
    // 1,800 bars of 4/4 at 120 bpm = exactly one hour, with ramps in between to exercise the map.
    const score = fourFourScore({
      bars: 1900,
      tempo: [
        { at: { bar: 1, beat: 1 }, bpm: 120 },
        { at: { bar: 100, beat: 1 }, bpm: 120, to: 97.3, until: { bar: 140, beat: 3 } },
        { at: { bar: 600, beat: 2 }, bpm: 133.7 },
      ],
    });
    const { clock, engine, beats } = setup(score);
    const timeline = createTimeline(score);
    engine.play();
    const start = beats[0].at;
    // Advance in uneven steps, as a real event loop would fire timers.
    for (let i = 0; i < 3600 * 8; i += 1) clock.advance(137 + (i % 11));
    expect(beats.length).toBeGreaterThan(7000);
    let worst = 0;
    beats.forEach((b, k) => {
      expect(b.index).toBe(k);
      worst = Math.max(worst, Math.abs(b.at - start - timeline.msAt(k)));
    });
    expect(worst).toBeLessThan(1);
    expect(beats.at(-1).at - start).toBeGreaterThan(3600_000);
  });

  test('every beat is published ahead of time, by about the lookahead', () => {
    const { clock, engine, beats } = setup(fourFourScore({ bpm: 100 }), 250);
    engine.play();
    clock.advance(10_000);
    for (const b of beats) {
      expect(b.at - b.publishedAt).toBeGreaterThan(0);
      expect(b.at - b.publishedAt).toBeLessThanOrEqual(250);
    }
  });

  test('play, pause, resume with the next beat, stop returns to the start', () => {
    const { clock, engine, states, transports } = setup(fourFourScore({ bpm: 120 }));
    engine.play();
    clock.advance(2200); // beats 0..4 published (beat 5 at 2500+300 not yet)
    const before = engine.status();
    expect(before.transport).toBe('playing');
    engine.pause();
    expect(engine.status().transport).toBe('paused');
    const paused = engine.status().position.index;
    clock.advance(5000);
    expect(engine.status().position.index).toBe(paused);
    engine.play();
    expect(engine.status().position.index).toBe(paused + 1);
    engine.stop();
    expect(engine.status()).toMatchObject({ transport: 'stopped', position: { bar: 1, beat: 1, index: 0 } });
    expect(transports).toEqual(['playing', 'paused', 'playing', 'stopped']);
    expect(states.at(-1).transport).toBe('stopped');
  });

  test('seek while playing: the target beat sounds one lookahead later', () => {
    const { clock, engine, beats } = setup(fourFourScore({ bars: 20 }));
    engine.play();
    clock.advance(1000);
    const t = clock.now();
    engine.seek(9, 3);
    const b = beats.at(-1);
    expect(b).toMatchObject({ bar: 9, beat: 3 });
    expect(b.at).toBe(t + 300);
    expect(() => engine.seek(21, 1)).toThrow(EngineError);
    expect(() => engine.seek(2, 5)).toThrow(/beat must be an integer from 1 to 4/);
  });

  test('tempo override scales the map, keeps beats in order, and can be cleared', () => {
    const { clock, engine, beats } = setup(fourFourScore({ bpm: 100 }));
    engine.play();
    clock.advance(1000);
    engine.setTempo(300);
    expect(engine.status().tempo).toBe(300);
    clock.advance(3000);
    for (let i = 1; i < beats.length; i += 1) expect(beats[i].at).toBeGreaterThan(beats[i - 1].at);
    const gaps = beats
      .slice(-3)
      .map((b, i, a) => (i ? b.at - a[i - 1].at : 0))
      .slice(1);
    gaps.forEach((g) => expect(g).toBeCloseTo(200, 6));
    engine.setTempo(null);
    expect(engine.status().tempo).toBe(100);
    expect(() => engine.setTempo(5)).toThrow(/bpm must be a number from 10 to 400/);
  });

  test('the piece stops by itself after its last beat', () => {
    const { clock, engine, transports } = setup(fourFourScore({ bars: 2, bpm: 240 }));
    engine.play();
    clock.advance(3000);
    expect(transports).toEqual(['playing', 'stopped']);
    expect(engine.status().transport).toBe('stopped');
    engine.play();
    expect(engine.status().position.index).toBe(0);
  });

  test('cues: view merges, audio and OSC carry their beat time; seek recomputes the view', () => {
    const score = fourFourScore({
      parts: [{ id: 'vln', name: 'Violin', osc: '/vln' }],
      assets: [
        { id: 'bell', kind: 'audio', src: 'media/bell.wav' },
        { id: 'sky', kind: 'image', src: 'img/sky.png' },
      ],
      view: { text: 'Welcome', color: '#000000' },
      sections: [{ at: { bar: 3, beat: 1 }, mark: 'B', name: 'Storm' }],
      cues: [
        { at: { bar: 2, beat: 1 }, view: { text: 'Breathe', image: 'sky' } },
        { at: { bar: 2, beat: 3 }, audio: { asset: 'bell', gain: 0.5 } },
        { at: { bar: 3, beat: 1 }, osc: { part: 'vln', address: '/cue', args: [1, 'go'] } },
      ],
    });
    const { clock, engine, states, oscCues, beats } = setup(score);
    expect(engine.state().view).toEqual({ text: 'Welcome', color: '#000000' });
    expect(engine.state().score.media).toEqual(['media/media/bell.wav']); // audio only, for Join to preload
    engine.play();
    clock.advance(5000);
    const atBar2 = states.find((s) => s.position.bar === 2 && s.position.beat === 1);
    expect(atBar2.view).toMatchObject({ text: 'Breathe', color: '#000000', image: 'media/img/sky.png', at: atBar2.position.at });
    const withAudio = states.find((s) => s.audio);
    expect(withAudio.audio).toEqual({ cue: 1, src: 'media/media/bell.wav', gain: 0.5, at: withAudio.position.at });
    expect(oscCues).toHaveLength(1);
    expect(oscCues[0]).toMatchObject({ address: '/vln/cue', args: [1, 'go'] });
    expect(oscCues[0].at).toBe(beats.find((b) => b.bar === 3 && b.beat === 1).at);
    expect(oscCues[0].at).toBeGreaterThan(oscCues[0].publishedAt);
    expect(states.at(-1).section).toEqual({ mark: 'B', name: 'Storm', bar: 3 });
    engine.stop();
    engine.seek(2, 2);
    expect(engine.state().view).toMatchObject({ text: 'Breathe', image: 'media/img/sky.png' });
    expect(engine.state().section).toBeUndefined();
  });
});

describe('resume after a crash', () => {
  test('a playing show carries on at the beat that should be sounding now, on the old grid', () => {
    const score = fourFourScore({ bars: 40, bpm: 120 });
    const first = setup(score);
    first.engine.play();
    first.clock.advance(3000);
    first.engine.setTempo(150);
    first.clock.advance(2000);
    const point = JSON.parse(JSON.stringify(first.engine.resumePoint()));
    const lastBeat = first.beats.at(-1);

    // A new process, 2.5 s later, with its own clock reading the same wall time.
    const second = setup(score);
    second.clock.advance(first.clock.now() - second.clock.now() + 2500);
    expect(second.engine.resumeFrom(point)).toBe(true);
    expect(second.engine.status().transport).toBe('playing');
    // At once, before any new beat is published, the position is where the show is now.
    expect(second.engine.status().position.index).toBeGreaterThan(lastBeat.index);
    second.clock.advance(1000);
    const resumed = second.beats[0];
    const beatMs = 60000 / 150;
    // Same grid: the resumed beat's time is a whole number of beats after the last one heard.
    const gap = (resumed.at - lastBeat.at) / beatMs;
    expect(Math.abs(gap - Math.round(gap))).toBeLessThan(1e-6);
    expect(resumed.index - lastBeat.index).toBe(Math.round(gap));
    expect(resumed.at).toBeGreaterThanOrEqual(second.clock.now() - 1000);
    expect(second.engine.status().tempo).toBe(150);
  });

  test('a paused show comes back paused at the same place; another score is refused', () => {
    const score = fourFourScore({ bars: 40 });
    const first = setup(score);
    first.engine.seek(12, 3);
    first.engine.play();
    first.clock.advance(400);
    first.engine.pause();
    const point = first.engine.resumePoint();
    const second = setup(score);
    expect(second.engine.resumeFrom(point)).toBe(true);
    expect(second.engine.status().transport).toBe('paused');
    expect(second.engine.status().position.index).toBe(first.engine.status().position.index);
    second.engine.play();
    expect(second.engine.status().position.index).toBe(first.engine.status().position.index + 1);
    const other = setup({ ...score, id: 'other' });
    expect(other.engine.resumeFrom(point)).toBe(false);
  });
});
