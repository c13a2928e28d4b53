// The flywheel (issue 12 §1) at the core: a viewer holding only the lean state computes every
// beat and every view the full stream would have sent, and the lean stream is much smaller.

import { readFileSync } from 'node:fs';
import { createStateStream } from '#core/stream/state-stream.js';
import { deriveLeanState } from '#core/stream/lean-state.js';
import { beatAt, flywheelSegment, plannedViews } from '#core/client/flywheel.js';
import { encodeTextFrame, encodeDeflatedTextFrame } from '../../../local-server/src/hub/ws-frame.js';
import { createFakeClock } from '../../support/fake-clock.js';
import { engineOnFakeClock, loadTestScore } from '../../support/engine-on-fake-clock.js';

const loadScore = loadTestScore();
const tidal = JSON.parse(readFileSync(new URL('../../../scores/tidal-lines.score.json', import.meta.url), 'utf8'));

const withoutAt = ({ at: _at, ...view }) => view;

/** Play a score on a fake clock, deriving the lean stream from every full state. */
function play(raw, steps) {
  const clock = createFakeClock();
  const full = createStateStream({ epoch: 'e', state: {}, now: clock.now });
  const leanStream = createStateStream({ epoch: 'e~lean', state: {}, now: clock.now });
  let lean = null;
  const bytes = { full: 0, lean: 0 };
  const checks = [];
  const { engine } = engineOnFakeClock(
    raw,
    (state) => {
      const u = full.update(state);
      if (u) bytes.full += encodeTextFrame(u.json).length;
      lean = deriveLeanState(lean, state);
      const l = leanStream.update(lean);
      if (l) bytes.lean += encodeDeflatedTextFrame(l.json).length;
      if (state.transport === 'playing') checks.push({ full: state, lean: leanStream.state() });
    },
    clock,
  );
  steps(engine, clock);
  return { bytes, checks };
}

function expectFlywheelMatches(checks) {
  expect(checks.length).toBeGreaterThan(50);
  for (const { full, lean } of checks) {
    const segment = flywheelSegment(lean);
    expect(segment).not.toBeNull();
    const beat = beatAt(segment, full.position.at + 0.5); // position.at is rounded to whole ms
    expect({ index: beat.index, bar: beat.bar, beat: beat.beat, beats: beat.beats }).toEqual({
      index: full.position.index,
      bar: full.position.bar,
      beat: full.position.beat,
      beats: full.position.beats,
    });
    expect(Math.abs(beat.at - full.position.at)).toBeLessThanOrEqual(0.5);
    const due = plannedViews(lean)
      .filter((v) => v.at === null || v.at <= full.position.at + 0.5)
      .at(-1);
    expect(withoutAt(due.view)).toEqual(withoutAt(full.view));
  }
}

test('on the load-test score, the lean state gives every beat and view of the full stream, in ≥ 4× fewer bytes', () => {
  const { bytes, checks } = play(loadScore, (engine, clock) => {
    engine.play();
    clock.advance(120_000);
  });
  expectFlywheelMatches(checks);
  const perMinute = { full: bytes.full / 2, lean: bytes.lean / 2 };
  expect(perMinute.full).toBeGreaterThan(20_000);
  expect(perMinute.lean * 4).toBeLessThan(perMinute.full);
});

test('ramps, meter changes, seeks and tempo overrides keep the flywheel exact', () => {
  const { checks } = play(tidal, (engine, clock) => {
    engine.play();
    clock.advance(40_000);
    engine.seek(20, 2);
    clock.advance(20_000);
    engine.setTempo(77);
    clock.advance(30_000);
    engine.pause();
    clock.advance(2000);
    engine.play();
    clock.advance(60_000);
  });
  expectFlywheelMatches(checks);
});

test('deriving the lean state of a lean state changes nothing', () => {
  const { checks } = play(loadScore, (engine, clock) => {
    engine.play();
    clock.advance(20_000);
  });
  let previous = null;
  for (const { lean } of checks) {
    expect(deriveLeanState(previous, lean)).toEqual(lean);
    previous = lean;
  }
});
