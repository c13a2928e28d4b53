// Issue 11: a seek must not cost work proportional to the number of cues (one datagram of seeks
// stalled the server for seconds on a 100k-cue score). Speed figures: `npm run bench:seek`.

import { createShowEngine } from '#core/engine/engine.js';
import { createCueIndex, CHECKPOINT_EVERY } from '#core/score/cue-index.js';
import { createTimeline } from '#core/score/timeline.js';
import { viewPatch, mergeView } from '#core/score/audience-view.js';
import { createSeededRandom } from '#core/util/seeded-random.js';
import { createFakeClock } from '../../support/fake-clock.js';
import { manyCuesScore } from '../../support/many-cues-score.js';

const score = manyCuesScore();

test('the view at any beat is exact and costs at most one checkpoint interval of merges', () => {
  const small = manyCuesScore({ cues: 5000, bars: 1000 });
  const timeline = createTimeline(small);
  const smallCues = small.cues.map((cue, n) => ({ ...cue, n, index: timeline.indexOf(cue.at.bar, cue.at.beat) }));
  const smallIndex = createCueIndex({ cues: smallCues, initialView: small.view, assets: new Map() });
  for (const beat of [0, 1, 255, 256, 2047, 3999]) {
    // Against the plain definition: every view cue up to the beat, merged in order.
    let expected = mergeView({}, viewPatch(small.view, new Map()));
    for (const cue of smallCues) if (cue.index <= beat) expected = mergeView(expected, viewPatch(cue.view, new Map()));
    expect(smallIndex.viewAt(beat)).toEqual(expected);
  }
});

test('the view at a beat of a 100,000-cue score costs at most one checkpoint interval of merges', () => {
  const timeline = createTimeline(score);
  const cues = score.cues.map((cue, n) => ({ ...cue, n, index: timeline.indexOf(cue.at.bar, cue.at.beat) }));
  const index = createCueIndex({ cues, initialView: score.view, assets: new Map() });
  const random = createSeededRandom(5);
  for (let k = 0; k < 40; k += 1) {
    const beat = Math.floor(random() * timeline.totalBeats);
    const before = index.merges();
    const view = index.viewAt(beat);
    expect(index.merges() - before).toBeLessThanOrEqual(CHECKPOINT_EVERY);
    expect(view.text).toBe('grid');
  }
});

test('1,000 seeks on a 100,000-cue score finish within a generous 20 s (the old full replay took seconds per seek on this score)', () => {
  const clock = createFakeClock();
  const engine = createShowEngine({ score, now: clock.now, setTimer: clock.setTimer, clearTimer: clock.clearTimer });
  const random = createSeededRandom(7);
  engine.play();
  const started = performance.now();
  let done = 0;
  // Bounded in count and in time: on the old code this stops at the bound instead of running ~35 s.
  while (done < 1000 && performance.now() - started < 20_000) {
    engine.seek(1 + Math.floor(random() * score.bars), 1 + Math.floor(random() * 4));
    done += 1;
  }
  expect(done).toBe(1000);
  engine.dispose();
});
