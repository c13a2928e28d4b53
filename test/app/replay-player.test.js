// The console's replay player (web/console/replay-player.js; docs/how-to/record-and-replay.md#replaying-a-record),
// pure: envelopes applied at the time they were sent, the beat (with its section) and the view
// shown at their own `at`, as a phone shows them; a jump back starts again from the top; actions,
// votes and audience samples up to the moment.
import { createReplayPlayer } from '../../web/console/replay-player.js';

const env = (t, type, data) => ({ k: 'env', e: { v: 1, type, epoch: 'e', seq: 0, t, data } });
const ENTRIES = [
  { k: 'open', t: 1000 },
  env(1000, 'snapshot', { transport: 'stopped', position: { bar: 1, beat: 1, at: 1000 }, view: { text: 'One' }, section: { mark: 'A' } }),
  { k: 'act', t: 1500, by: 'console', kind: 'transport', what: 'play' },
  env(1500, 'delta', { transport: 'playing', position: { at: 1800 } }),
  env(2000, 'delta', { position: { beat: 2, at: 2300 }, view: { text: 'Two', at: 2300 } }),
  { k: 'sample', t: 2100, viewers: { ws: 3, sse: 1, poll: 0, edge: 5 } },
  { k: 'act', t: 2500, by: 'OSC-in', kind: 'transport', what: 'seek to bar 9 beat 1' },
  env(2500, 'delta', { position: { bar: 9, beat: 1, at: 2800 }, section: { mark: 'B' }, view: { text: 'Nine', at: 2800 } }),
  { k: 'vote', t: 2600, id: 'way', winner: 'a' },
  { k: 'close', t: 3000 },
];

test('what a phone showed at each moment, forward and after a jump back', () => {
  const player = createReplayPlayer(ENTRIES);
  expect([player.start, player.end]).toEqual([1000, 3000]);
  player.advanceTo(1000);
  expect(player.moment()).toMatchObject({
    transport: 'stopped',
    position: { bar: 1, beat: 1 },
    view: { text: 'One' },
    section: { mark: 'A' },
  });
  // Sent at 2000 for 2300: not shown before its time.
  player.advanceTo(2200);
  expect(player.moment()).toMatchObject({
    transport: 'playing',
    position: { beat: 1 },
    view: { text: 'One' },
    sample: { viewers: { edge: 5 } },
  });
  player.advanceTo(2300);
  expect(player.moment()).toMatchObject({ position: { bar: 1, beat: 2 }, view: { text: 'Two' } });
  // The seek is sent at 2500: section B comes with its beat at 2800, not before.
  player.advanceTo(2700);
  expect(player.moment()).toMatchObject({
    section: { mark: 'A' },
    position: { bar: 1 },
    recent: [{ what: 'play' }, { what: 'seek to bar 9 beat 1' }],
  });
  player.advanceTo(2900);
  expect(player.moment()).toMatchObject({
    section: { mark: 'B' },
    position: { bar: 9 },
    view: { text: 'Nine' },
    lastVote: { winner: 'a' },
  });
  // Back to 1600: from the top again, nothing of later moments left over.
  player.advanceTo(1600);
  expect(player.moment()).toMatchObject({
    transport: 'stopped',
    position: { bar: 1, beat: 1 },
    view: { text: 'One' },
    lastVote: null,
    sample: null,
    actionsDone: 1,
  });
  player.advanceTo(1800);
  expect(player.moment()).toMatchObject({ transport: 'playing', section: { mark: 'A' } });
});

test("which of the record's scores was loaded at each moment (the media route's ?score=)", () => {
  const player = createReplayPlayer([
    { k: 'open', t: 1000, score: { id: 'a', path: '/a/a.score.json' } },
    env(1000, 'snapshot', { view: { text: 'A', image: 'media/x.png' } }),
    { k: 'score', t: 2000, score: { id: 'b', path: '/b/b.score.json' } },
    env(2000, 'snapshot', { view: { text: 'B', image: 'media/x.png' } }),
    { k: 'close', t: 3000 },
  ]);
  // The same path in each score is two files, to fetch from each score's folder.
  expect(player.media).toEqual([
    { src: 'media/x.png', scoreIndex: 0 },
    { src: 'media/x.png', scoreIndex: 1 },
  ]);
  player.advanceTo(1500);
  expect(player.moment()).toMatchObject({ scoreIndex: 0, view: { image: 'media/x.png' } });
  player.advanceTo(2500);
  expect(player.moment().scoreIndex).toBe(1);
  player.advanceTo(1200); // a jump back: from the top, the first score again
  expect(player.moment().scoreIndex).toBe(0);
});

test('a stop shows stopped from its own entry, though beats were announced past it (issue 40 item 10)', () => {
  // Playing at 100 bpm: each beat is sent 300 ms before it sounds; the stop comes between a beat
  // sent (for 3300) and its time, and puts the position back to bar 1 at once.
  const player = createReplayPlayer([
    { k: 'open', t: 1000 },
    env(1000, 'snapshot', { transport: 'playing', tempo: 100, position: { bar: 11, beat: 1, at: 2700 } }),
    env(3000, 'delta', { position: { beat: 2, at: 3300 } }),
    env(3100, 'delta', { transport: 'stopped', position: { bar: 1, beat: 1, at: 3100 } }),
    { k: 'close', t: 20_000 },
  ]);
  player.advanceTo(3050);
  expect(player.moment()).toMatchObject({ transport: 'playing', position: { bar: 11, beat: 1 } });
  for (const t of [3100, 3300, 3400, 16_000]) {
    player.advanceTo(t);
    expect(player.moment()).toMatchObject({ transport: 'stopped', position: { bar: 1, beat: 1 }, tempo: 100 });
  }
});
