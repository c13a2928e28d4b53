// The flywheel plan (web/audience/src/flywheel-plan.js) at a segment boundary above
// 200 bpm: the server publishes the next segment one lookahead (300 ms) before its first beat,
// which is before the old segment's last beat sounds when a beat is shorter than 300 ms. That
// last beat must still be shown (it used to be skipped: the new segment's anchor was in the
// future, so nothing was "sounding"), and a seek must still replace the old segment at once.
import { createFlywheelPlan } from '../../web/audience/src/flywheel-plan.js';
import { createBeatSchedule } from '#core/client/beat-schedule.js';

const BEAT = 250; // 240 bpm
const segmentA = { index: 0, bar: 1, beat: 1, beats: 4, at: 10_000, bpm: 240, step: 0, until: 20, end: false };
const segmentB = { index: 20, bar: 6, beat: 1, beats: 3, at: 10_000 + 20 * BEAT, bpm: 240, step: 0, until: 30, end: true };
const playing = (segment) => ({ transport: 'playing', segment, ahead: { [segment.index]: { until: segment.until, items: [] } }, view: {} });

test("a continuing segment that arrives early leaves the old segment's last beat on screen, then carries on", () => {
  const plan = createFlywheelPlan();
  plan.update(playing(segmentA), true);
  expect(plan.beat(10_000 + 18 * BEAT + 1).show.index).toBe(18);
  // Segment B arrives 300 ms before beat 20: beat 19 (at 14,750) has not sounded yet.
  const { continued } = plan.update(playing(segmentB), false);
  expect(continued).toBe(true);
  const at19 = plan.beat(10_000 + 19 * BEAT + 1);
  expect(at19.show?.index).toBe(19);
  expect(at19.nextAt).toBe(segmentB.at);
  const at20 = plan.beat(segmentB.at + 1);
  expect([at20.show?.index, at20.show?.bar, at20.show?.beats]).toEqual([20, 6, 3]);
});

test('a seek (a segment that does not start where the old one ends) replaces it at once', () => {
  const plan = createFlywheelPlan();
  plan.update(playing(segmentA), true);
  expect(plan.beat(10_000 + 5 * BEAT + 1).show.index).toBe(5);
  const seek = { ...segmentB, index: 40, bar: 11, at: 10_000 + 5 * BEAT + 300, until: 60 };
  const { continued } = plan.update(playing(seek), false);
  expect(continued).toBe(false);
  // Until the seek's first beat sounds, nothing new is shown (the old beats are not carried on).
  expect(plan.beat(10_000 + 6 * BEAT + 1).show).toBeNull();
  expect(plan.beat(seek.at + 1).show.index).toBe(40);
});

test('a later chunk arriving in pieces never takes the page back to an older view', () => {
  // The page's path (web/audience/src/main.js): every state's planned views go into the beat
  // schedule, which releases the newest due one. Before, only the last released key was
  // remembered, so re-adding the window queued the older views again and the page ended on one.
  const plan = createFlywheelPlan();
  const schedule = createBeatSchedule({ limit: 256 });
  const at = (i) => segmentA.at + i * BEAT;
  const chunk0 = { until: 20, items: [2, 4, 8].map((i, k) => ({ i, at: at(i), view: { text: 'ABC'[k] } })) };
  const shown = [];
  const apply = (state, epochChanged, now) => {
    const { views } = plan.update(state, epochChanged);
    for (const v of views ?? []) schedule.add('view', v.at ?? now, v.key, v.view);
    for (const item of schedule.due(now)) shown.push(item.payload.text);
  };
  apply({ transport: 'playing', segment: segmentA, ahead: { 0: chunk0 }, view: { text: 'start', at: segmentA.at - 100 } }, true, at(0));
  apply(plan.state(), false, at(5)); // the clock reaches beat 5: A, then B
  expect(shown.at(-1)).toBe('B');
  // The next chunk arrives in two pieces (the full stream's `ahead` grows mid-chunk).
  const piece1 = { until: 30, items: [{ i: 22, at: at(22), view: { text: 'D' } }] };
  const piece2 = { until: 30, items: [...piece1.items, { i: 26, at: at(26), view: { text: 'E' } }] };
  apply({ transport: 'playing', segment: segmentA, ahead: { 0: chunk0, 20: piece1 }, view: { text: 'B', at: at(4) } }, false, at(6));
  apply({ transport: 'playing', segment: segmentA, ahead: { 0: chunk0, 20: piece2 }, view: { text: 'B', at: at(4) } }, false, at(7));
  expect(shown.at(-1)).toBe('B');
  for (const item of schedule.due(at(9))) shown.push(item.payload.text);
  expect(shown).toEqual(['start', 'B', 'C']);
});
