// What a show publishes (local-server/src/show/show-streams.js), with a real hub and metrics and no
// viewers: extras merged into every state, rehearsal mode withholding what phones could act on,
// the lean stream derived from the full one in order, a reset that starts both streams in a
// new epoch without sending anything, and an action's look-ahead held back a moment on the lean
// stream (a real engine playing the load-test score on a fake clock).
import { afterEach, describe, expect, test } from '@jest/globals';
import { createShowStreams, LOOK_AHEAD_DELAY_MS } from '../../../local-server/src/show/show-streams.js';
import { createMetrics } from '../../../local-server/src/logs/metrics.js';
import { LEAN_EPOCH_SUFFIX } from '#core/stream/lean-state.js';
import { createFakeClock } from '../../support/fake-clock.js';
import { engineOnFakeClock, loadTestScore } from '../../support/engine-on-fake-clock.js';

let streams;
const envelopes = [];
afterEach(() => {
  streams?.close();
  envelopes.length = 0;
});

function start() {
  streams = createShowStreams({
    epoch: 'first',
    now: () => 1000.4,
    metrics: createMetrics(),
    replayLimit: 16,
    hubOptions: {},
    onEnvelope: (json) => envelopes.push(JSON.parse(json)),
    setTimer: setTimeout,
    clearTimer: clearTimeout,
  });
  return streams;
}

const engineState = (beat) => ({ transport: 'playing', position: { bar: 1, beat, beats: beat - 1 }, tempo: 120 });

test('a reset starts both streams in a new epoch and sends nothing; each change is one envelope, in whole ms', () => {
  const s = start();
  s.reset('e1', engineState(1));
  expect(envelopes).toEqual([]);
  expect([s.stream.epoch(), s.leanStream.epoch()]).toEqual(['e1', `e1${LEAN_EPOCH_SUFFIX}`]);
  expect(s.stream.state()).toMatchObject(engineState(1));

  s.publish(engineState(2));
  s.publish(engineState(2)); // nothing changed: nothing sent
  expect(envelopes).toHaveLength(1);
  expect(envelopes[0]).toMatchObject({ epoch: 'e1', seq: 1, t: 1000 });
  expect(s.stream.seq()).toBe(1);
  expect(s.leanStream.seq()).toBe(1);
});

test('extras are merged into every state; rehearsal mode withholds the vote and says so', () => {
  const s = start();
  let vote = { id: 'path', closed: false };
  s.addExtra(() => ({ vote }));
  s.reset('e1', engineState(1));
  expect(s.stream.state()).toMatchObject({ vote: { id: 'path' } });

  expect(s.setRehearsal(true)).toBe(true);
  expect(s.setRehearsal(true)).toBe(false);
  expect(s.rehearsal()).toBe(true);
  s.publish(engineState(2));
  expect(s.stream.state()).toMatchObject({ rehearsal: true });
  expect(s.stream.state()).not.toHaveProperty('vote');

  expect(s.setRehearsal(false)).toBe(true);
  vote = { id: 'path', closed: true };
  s.publish(engineState(2));
  expect(s.stream.state()).toMatchObject({ vote: { id: 'path', closed: true } });
  expect(s.stream.state()).not.toHaveProperty('rehearsal');
});

describe('the action first, the look-ahead a moment later (README.md, "The action first, the look-ahead after")', () => {
  /** The load-test score played by a real engine into real streams, all on one fake clock. */
  function playLoadTestScore(lookAheadDelayMs) {
    const clock = createFakeClock();
    streams = createShowStreams({
      epoch: 'first',
      now: clock.now,
      metrics: createMetrics(),
      replayLimit: 64,
      hubOptions: {},
      onEnvelope: () => {},
      lookAheadDelayMs,
      setTimer: clock.setTimer,
      clearTimer: clock.clearTimer,
    });
    const { engine } = engineOnFakeClock(loadTestScore(), streams.publish, clock);
    streams.reset('e1', engine.state());
    engine.play();
    clock.advance(20_000);
    return { engine, clock, lean: streams.leanStream, full: streams.stream };
  }
  const hasChunks = (state) => state.ahead !== null && typeof state.ahead === 'object';

  test('a seek: the lean stream has the action without chunks; its look-ahead follows after the delay', () => {
    const { engine, clock, lean, full } = playLoadTestScore(LOOK_AHEAD_DELAY_MS);
    const before = lean.seq();
    const fullSeq = full.seq();
    engine.seek(40, 1);
    expect(lean.seq()).toBe(before + 1);
    expect(lean.state()).toMatchObject({ segment: { bar: 40, beat: 1 }, position: { bar: 40, beat: 1 } });
    expect(hasChunks(lean.state())).toBe(false);
    clock.advance(LOOK_AHEAD_DELAY_MS - 1);
    expect(full.seq()).toBe(fullSeq + 1); // no beat published meanwhile: only the timer can send it
    expect(lean.seq()).toBe(before + 1);
    clock.advance(1);
    expect(lean.seq()).toBe(before + 2);
    expect(hasChunks(lean.state())).toBe(true);
    expect(lean.state()).not.toHaveProperty('position');
  });

  test('the next update sends a look-ahead still waiting first, in order', () => {
    const { engine, clock, lean, full } = playLoadTestScore(60_000);
    engine.setTempo(150);
    const action = lean.seq();
    expect(hasChunks(lean.state())).toBe(false);
    const fullSeq = full.seq();
    // The next beat's update: the look-ahead goes out before it, so the lean stream has it.
    while (full.seq() === fullSeq) clock.advance(10);
    expect(lean.seq()).toBe(action + 1);
    expect(hasChunks(lean.state())).toBe(true);
    expect(lean.state().segment).toMatchObject({ bpm: 150 });
  });

  test("a republish while it waits (a vote's tally) goes out without it; the look-ahead still waits for its timer", () => {
    const { engine, clock, lean, full } = playLoadTestScore(LOOK_AHEAD_DELAY_MS);
    let counts = [0, 0];
    streams.addExtra(() => ({ vote: { id: 'q', counts } }));
    engine.seek(40, 1);
    const action = lean.seq();
    counts = [3, 1];
    streams.publish(engine.state()); // what the show's republish() does when the tally changes
    expect(lean.seq()).toBe(action + 1);
    expect(lean.state()).toMatchObject({ vote: { counts: [3, 1] }, position: { bar: 40, beat: 1 } });
    expect(hasChunks(lean.state())).toBe(false);
    clock.advance(LOOK_AHEAD_DELAY_MS);
    expect(lean.seq()).toBe(action + 2);
    expect(hasChunks(lean.state())).toBe(true);
    expect(lean.state().ahead).toEqual(full.state().ahead);
    expect(lean.state()).toMatchObject({ vote: { counts: [3, 1] } });
    expect(lean.state()).not.toHaveProperty('position');
  });

  test('a reset drops the look-ahead waiting: the new epoch starts from its own snapshot', () => {
    const { engine, clock, lean } = playLoadTestScore(LOOK_AHEAD_DELAY_MS);
    engine.seek(40, 1);
    engine.pause();
    streams.reset('e2', engine.state());
    clock.advance(LOOK_AHEAD_DELAY_MS * 2);
    expect(lean.epoch()).toBe(`e2${LEAN_EPOCH_SUFFIX}`);
    expect(lean.seq()).toBe(0);
  });
});
