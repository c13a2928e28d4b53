// The engine's parts on their own (core/engine/engine.js is their wiring): the position record's one
// reset, and the checks every entry point runs before it moves anything.
import { createShowPosition } from '#core/engine/show-position.js';
import { checkBarBeat, checkLoopRange, checkTempoPercent, checkBpm, EngineError } from '#core/engine/engine-limits.js';
import { EngineError as EngineErrorFromEngine, MIN_BPM } from '#core/engine/engine.js';
import { createTimeline } from '#core/score/timeline.js';
import { fourFourScore } from '../../support/scores.js';

describe('the position record', () => {
  test('moveTo is the one reset: beat, time, play-from, the view up to it, no sound, no pending branch', () => {
    const at = createShowPosition((index) => ({ upTo: index }));
    at.audio = { cue: 1 };
    at.jump = { from: 8, to: 40 };
    at.moveTo(5, 1234, 6);
    expect(at).toMatchObject({ current: 5, currentAt: 1234, playFrom: 6, view: { upTo: 5 }, audio: undefined, jump: null });
    at.moveTo(7, 2000); // play-from kept when not given
    expect(at).toMatchObject({ current: 7, currentAt: 2000, playFrom: 6, view: { upTo: 7 } });
  });

  test('showFrom changes what is shown and heard, not the beat shown', () => {
    const at = createShowPosition((index) => ({ upTo: index }));
    at.moveTo(3, 100, 3);
    at.audio = { cue: 2 };
    at.jump = { from: 4, to: 12 };
    at.showFrom(12);
    expect(at).toMatchObject({ current: 3, currentAt: 100, view: { upTo: 12 }, audio: undefined, jump: null });
  });
});

describe('the engine limits', () => {
  const timeline = createTimeline(fourFourScore({ bars: 8 }));
  const code = (fn) => {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(EngineError);
      return err.code;
    }
    return null;
  };

  test('one error type, re-exported by the engine', () => {
    expect(EngineErrorFromEngine).toBe(EngineError);
  });

  test('a bar and beat of the piece give its index; anything else is BAD_POSITION', () => {
    expect(checkBarBeat(timeline, 2, 3)).toBe(6);
    expect(code(() => checkBarBeat(timeline, 9, 1))).toBe('BAD_POSITION');
    expect(code(() => checkBarBeat(timeline, 1, 5))).toBe('BAD_POSITION');
    expect(code(() => checkBarBeat(timeline, 1.5, 1))).toBe('BAD_POSITION');
  });

  test('a loop ends after it starts, inside the piece', () => {
    expect(code(() => checkLoopRange(timeline, { start: 0, end: 32 }))).toBe(null);
    expect(code(() => checkLoopRange(timeline, { start: 4, end: 4 }))).toBe('BAD_RANGE');
    expect(code(() => checkLoopRange(timeline, { start: 0, end: 33 }))).toBe('BAD_RANGE');
  });

  test('a tempo in bpm or percent keeps every written tempo within the limits', () => {
    expect(code(() => checkBpm(null))).toBe(null);
    expect(code(() => checkBpm(MIN_BPM - 1))).toBe('BAD_TEMPO');
    expect(code(() => checkTempoPercent(50, { min: 60, max: 120 }))).toBe(null);
    expect(code(() => checkTempoPercent(10, { min: 60, max: 120 }))).toBe('BAD_TEMPO'); // 6 bpm
    expect(code(() => checkTempoPercent(200, { min: 60, max: 240 }))).toBe('BAD_TEMPO'); // 480 bpm
    expect(code(() => checkTempoPercent(Number.NaN, { min: 60, max: 120 }))).toBe('BAD_TEMPO');
  });
});
