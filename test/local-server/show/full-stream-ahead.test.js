// With aheadPieces the show's full stream sends a chunk that starts later in pieces (issue 27;
// docs/explanation/clock-sync.md#the-flywheel): the beat on which the window moves no longer carries the whole next chunk
// to every viewer, a viewer applying the full stream holds the same cues, and the lean stream is as
// before. Without it (the default) the chunk goes whole, as the second test shows.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createShow, createMetrics, loadScoreFile } from '../../../local-server/index.js';
import { applyEnvelope } from '#core/stream/state-stream.js';
import { aheadItems } from '#core/client/flywheel.js';
import { createFakeClock } from '../../support/fake-clock.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Play the load-test score for 2 minutes on a fake clock; the full stream's envelope sizes and what a viewer holds. */
async function play(aheadPieces) {
  const loaded = await loadScoreFile(path.join(ROOT, 'scores/union-rose-load.score.json'));
  expect(loaded.ok).toBe(true);
  const clock = createFakeClock();
  const show = createShow({
    loaded: { score: loaded.score, dir: loaded.dir, path: loaded.file },
    now: clock.now,
    metrics: createMetrics(),
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
    aheadPieces,
  });
  /** @type {Record<string, any> | null} */
  let viewer = applyEnvelope(null, JSON.parse(show.stream.snapshot().json));
  const sizes = [];
  let leanUpdates = 0;
  show.events.on('envelope', (json) => {
    sizes.push(Buffer.byteLength(json));
    viewer = applyEnvelope(viewer, JSON.parse(json));
  });
  const leanBefore = show.leanStream.seq();
  show.engine.play();
  clock.advance(1_000); // the start: the chunk the show is in goes whole
  const startSizes = sizes.length;
  let complete = 0;
  let checked = 0;
  for (let s = 0; s < 120; s += 1) {
    clock.advance(1_000);
    const engineItems = aheadItems(show.engine.state()).map((it) => it.i);
    const viewerItems = aheadItems(viewer).map((it) => it.i);
    expect(engineItems.slice(0, viewerItems.length)).toEqual(viewerItems);
    checked += 1;
    if (viewerItems.length === engineItems.length) complete += 1;
  }
  leanUpdates = show.leanStream.seq() - leanBefore;
  show.engine.dispose?.();
  return { playing: sizes.slice(startSizes), complete, checked, leanUpdates };
}

test('aheadPieces: no full-stream delta over 1.3 KB while playing on; a viewer ends each window with every cue', async () => {
  const { playing, complete, checked, leanUpdates } = await play(true);
  expect(playing.length).toBeGreaterThan(200);
  // A beat's delta with one piece; the whole next chunk is ~3.2 KB on this score.
  expect(Math.max(...playing)).toBeLessThan(1300);
  expect(complete / checked).toBeGreaterThan(0.7);
  // The lean stream still moves about once per 15 s window, not once per piece.
  expect(leanUpdates).toBeLessThan(20);
});

test('by default the chunk goes whole: the beat on which the window moves carries ~3 KB', async () => {
  const { playing, complete, checked } = await play(false);
  expect(Math.max(...playing)).toBeGreaterThan(2500);
  expect(complete).toBe(checked);
});
