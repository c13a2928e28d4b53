// The root's lean stream (edge-worker/src/show/lean-feed.js) as plain logic, on a Map standing in for
// the Durable Object's storage (the real storage is exercised on workerd by lean-stream.test.js):
// what it stores, what it drops beyond REPLAY_LIMIT, what it reads back, and the feed replies.

import { createStateStream } from '#core/stream/state-stream.js';
import { createLeanFeed, EDGE_LEAN_SUFFIX } from '../../../edge-worker/src/show/lean-feed.js';
import { createFeedCaches } from '../../../edge-worker/src/http/feed-caches.js';
import { WINDOW_BEATS, playingAt } from '../lean-show.js';

/** The storage calls lean-feed.js makes, on a Map. */
function mapStorage() {
  const map = new Map();
  return {
    map,
    async get(key) {
      return map.get(key);
    },
    async put(entries) {
      for (const [k, v] of Object.entries(entries)) map.set(k, structuredClone(v));
    },
    async delete(keys) {
      for (const k of [].concat(keys)) map.delete(k);
    },
    async list({ prefix }) {
      return new Map([...map].filter(([k]) => k.startsWith(prefix)).sort(([a], [b]) => (a < b ? -1 : 1)));
    },
  };
}

/** A venue stream and the root's state after each of its envelopes (the venue field left out). */
function venue(epoch) {
  const stream = createStateStream({ epoch, state: playingAt(0), now: Date.now });
  let beat = 0;
  const envelope = (json) => JSON.parse(json);
  return {
    snapshot: () => envelope(stream.snapshot().json),
    next: () => envelope(stream.update(playingAt(++beat)).json),
    state: () => stream.state(),
    beat: () => beat,
  };
}

test('one lean delta per window, stored; the oldest dropped beyond the replay limit; read back after a restart', async () => {
  const storage = mapStorage();
  const lean = createLeanFeed({ storage: /** @type {any} */ (storage), replayLimit: 2 });
  const show = venue('unit');
  const leanEpoch = `unit${EDGE_LEAN_SUFFIX}`;
  expect(lean.follow(show.snapshot(), show.state()).map((json) => JSON.parse(json))).toMatchObject([
    { type: 'snapshot', epoch: leanEpoch, seq: 0 },
  ]);
  const sent = [];
  for (let i = 0; i < 3 * WINDOW_BEATS; i += 1) {
    for (const json of lean.follow(show.next(), show.state())) sent.push(JSON.parse(json));
  }
  expect(sent.map((e) => [e.type, e.seq])).toEqual([
    ['delta', 1],
    ['delta', 2],
    ['delta', 3],
  ]);
  // REPLAY_LIMIT 2: deltas 2 and 3 kept, in memory and in storage.
  expect([...storage.map.keys()].filter((k) => k.startsWith('l:'))).toEqual(['l:0000000000000002', 'l:0000000000000003']);
  expect(lean.feed(leanEpoch, 1)).toMatchObject({ seq: 3, full: false, deltas: [{ seq: 2 }, { seq: 3 }] });
  expect(lean.feed(leanEpoch, 0)).toMatchObject({ seq: 3, full: true });
  expect(lean.feed('unit', 3)).toMatchObject({ full: true }); // the full epoch is foreign

  // A restarted root reads it back: same epoch, seq, rev, window.
  const again = createLeanFeed({ storage: /** @type {any} */ (storage), replayLimit: 2 });
  await again.load({ epoch: 'unit', seq: show.beat() }, show.state());
  expect(again.stats()).toEqual(lean.stats());
  expect(again.feed(leanEpoch, 1).deltas.map((d) => d.seq)).toEqual([2, 3]);
  expect(again.latest()).toEqual({ rev: lean.latest().rev, snapshot: expect.stringContaining(`"seq":3`) });

  // Stored for another epoch than the root's head: it starts again from the head, rev still growing.
  const other = createLeanFeed({ storage: /** @type {any} */ (storage), replayLimit: 2 });
  await other.load({ epoch: 'elsewhere', seq: 41 }, show.state());
  expect(other.stats()).toMatchObject({ epoch: `elsewhere${EDGE_LEAN_SUFFIX}`, seq: 41, replay: 0 });
  expect(other.latest().rev).toBeGreaterThan(lean.latest().rev);
  expect([...storage.map.keys()].filter((k) => k.startsWith('l:'))).toEqual([]);
});

test("a catch-up snapshot of the same epoch continues the lean stream; a new epoch starts it at the snapshot's seq", () => {
  const lean = createLeanFeed({ storage: /** @type {any} */ (mapStorage()), replayLimit: 8 });
  const show = venue('same');
  lean.follow(show.snapshot(), show.state());
  for (let i = 0; i < WINDOW_BEATS - 1; i += 1) lean.follow(show.next(), show.state());
  // The publisher reconnects and sends a snapshot of the same epoch: no new lean snapshot, no change.
  expect(lean.follow({ ...show.snapshot(), type: 'snapshot' }, show.state())).toEqual([]);
  expect(lean.follow(show.next(), show.state()).map((json) => JSON.parse(json))).toMatchObject([{ type: 'delta', seq: 1 }]);
  // The root's own "lost" snapshot: a new epoch at the full snapshot's seq.
  const lost = { type: 'snapshot', epoch: 'lost-x', seq: show.beat() + 1, t: Date.now() };
  expect(lean.follow(lost, { ...show.state(), venue: { status: 'lost', since: 1 } }).map((json) => JSON.parse(json))).toMatchObject([
    { type: 'snapshot', epoch: `lost-x${EDGE_LEAN_SUFFIX}`, seq: show.beat() + 1 },
  ]);
});

test('an operator action that moves the cues ahead: the action at once, its look-ahead when released, both stored', () => {
  const storage = mapStorage();
  const lean = createLeanFeed({ storage: /** @type {any} */ (storage), replayLimit: 8 });
  const stream = createStateStream({ epoch: 'act', state: playingAt(0), now: Date.now });
  lean.follow(JSON.parse(stream.snapshot().json), stream.state());
  const tempo = JSON.parse(stream.update(playingAt(1, { bpm: 90 })).json);
  const action = lean.follow(tempo, stream.state()).map((json) => JSON.parse(json));
  expect(action.map((e) => [e.type, e.seq])).toEqual([['delta', 1]]);
  expect(action[0].data).toMatchObject({ segment: { bpm: 90 }, ahead: null, tempo: 90 });
  // The look-ahead waits (the root's timer releases it): not on the stream, its feed or storage yet.
  expect(lean.lookAheadWaiting()).toBe(true);
  expect(lean.feed(`act${EDGE_LEAN_SUFFIX}`, 0).deltas.map((d) => d.seq)).toEqual([1]);
  expect([...storage.map.keys()].filter((k) => k.startsWith('l:'))).toEqual(['l:0000000000000001']);

  const lookAhead = lean.releaseLookAhead().map((json) => JSON.parse(json));
  expect(lookAhead.map((e) => [e.type, e.seq])).toEqual([['delta', 2]]);
  expect(lookAhead[0].data).toEqual({ ahead: stream.state().ahead, tempo: null, position: null });
  expect(lookAhead[0].t).toBeGreaterThanOrEqual(action[0].t);
  expect(lean.lookAheadWaiting()).toBe(false);
  expect(lean.releaseLookAhead()).toEqual([]); // released once
  expect([...storage.map.keys()].filter((k) => k.startsWith('l:'))).toEqual(['l:0000000000000001', 'l:0000000000000002']);
  expect(lean.feed(`act${EDGE_LEAN_SUFFIX}`, 0).deltas.map((d) => d.seq)).toEqual([1, 2]);

  // The next update comes before the timer: the waiting look-ahead goes out first, in order.
  lean.follow(JSON.parse(stream.update(playingAt(2, { bpm: 100 })).json), stream.state());
  expect(lean.lookAheadWaiting()).toBe(true);
  const next = lean.follow(JSON.parse(stream.update(playingAt(3, { bpm: 100 })).json), stream.state()).map((json) => JSON.parse(json));
  expect(next.map((e) => [e.seq, Object.hasOwn(e.data, 'ahead')])).toEqual([[4, true]]);
  expect(lean.lookAheadWaiting()).toBe(false);

  // An update that keeps the beat and the cues (a vote's tally) goes out without the look-ahead,
  // which keeps waiting and then carries the new state.
  lean.releaseLookAhead();
  lean.follow(JSON.parse(stream.update(playingAt(5, { bpm: 90 })).json), stream.state());
  expect(lean.lookAheadWaiting()).toBe(true);
  // The root restarts its timer for a new action's look-ahead only (show.js), not for a tally.
  const started = lean.lookAheadsStarted();
  const tally = lean.follow(JSON.parse(stream.update({ ...playingAt(5, { bpm: 90 }), vote: { counts: [2] } }).json), stream.state());
  expect(tally.map((json) => JSON.parse(json).data)).toEqual([{ vote: { counts: [2] } }]);
  expect(lean.lookAheadWaiting()).toBe(true);
  expect(lean.lookAheadsStarted()).toBe(started);
  expect(lean.releaseLookAhead().map((json) => JSON.parse(json).data)).toEqual([
    { ahead: stream.state().ahead, tempo: null, position: null },
  ]);

  // A new epoch drops a waiting look-ahead: its snapshot carries the cues.
  lean.follow(JSON.parse(stream.update(playingAt(4, { bpm: 80 })).json), stream.state());
  expect(lean.lookAheadWaiting()).toBe(true);
  expect(lean.lookAheadsStarted()).toBe(started + 1);
  const lost = { type: 'snapshot', epoch: 'lost-y', seq: 9, t: Date.now() };
  expect(lean.follow(lost, stream.state()).map((json) => JSON.parse(json))).toMatchObject([
    { type: 'snapshot', epoch: `lost-y${EDGE_LEAN_SUFFIX}` },
  ]);
  expect(lean.lookAheadWaiting()).toBe(false);
  expect(lean.releaseLookAhead()).toEqual([]);
});

test('the Worker keeps one SSE/poll cache per show and stream, and the lean one asks the root for the lean feed', async () => {
  const caches = createFeedCaches({ ttlMs: 100, limit: 8 });
  const full = caches.forShow('a');
  const lean = caches.forShow('a', 'lean');
  expect(lean).not.toBe(full);
  expect(caches.forShow('a', 'lean')).toBe(lean);
  expect(caches.forShow(null, 'lean')).not.toBe(lean);
  const asked = [];
  const root = {
    feed: async (...args) => (
      asked.push(args),
      { epoch: 'e~lean-edge', seq: 0, rev: 1, snapshot: '{}', deltas: [], full: true, venue: { status: 'live', since: 1 }, clockOffset: 0 }
    ),
  };
  await lean.current(root);
  await full.current(root);
  expect(asked).toEqual([
    [null, null, 'lean'],
    [null, null, 'full'],
  ]);
});
