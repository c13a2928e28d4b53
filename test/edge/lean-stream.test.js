// `?stream=lean` at the edge (docs/README.md; docs/explanation/lean-stream.md#how-it-works): the root
// derives the lean stream once per update with the venue's rule and pushes it to the shards and
// the SSE/poll cache. A lean viewer gets one message per ahead window and per operator action,
// not one per beat (an action that moves the cues ahead: the action first, the look-ahead
// LOOK_AHEAD_DELAY_MS after); its own epoch (+ `~lean-edge`) and seq space; catch-up by seq on every transport;
// the numbers survive a workerd restart.

import { LEAN_EPOCH_SUFFIX, LOOK_AHEAD_DELAY_MS, deriveLeanState } from '#core/stream/lean-state.js';
import { applyEnvelope, createStateStream } from '#core/stream/state-stream.js';
import { NONE_SEQ } from '../../edge-worker/src/show/venue-status.js';
import { EDGE_LEAN_SUFFIX } from '../../edge-worker/src/show/lean-feed.js';
import { openPublisher, openSocket, openViewer, publish, readSse, startEdge, waitFor } from './helpers.js';
import { WINDOW_BEATS, playingAt } from './lean-show.js';

let edge;
let publisher;
/** The venue's side: its full stream, and the lean state its own rule derives (the reference). */
let venue;
let reference = null;
let beat = 0;
let bpm = 120;

/** Publish the venue's next full state and wait for the edge's ack. */
async function advance(next) {
  const update = venue.update(next);
  reference = deriveLeanState(reference, venue.state());
  const reply = await publish(publisher, update.json);
  expect(reply).toMatchObject({ type: 'ack', seq: update.seq });
}
const beats = async (n) => {
  for (let i = 0; i < n; i += 1) await advance(playingAt(++beat, { bpm }));
};

/** @param {string} path */
async function getJson(path) {
  const res = await fetch(`${edge.url}${path}`);
  expect(res.status).toBe(200);
  return res.json();
}

/** Apply a viewer's envelopes in order; the state it holds. */
const held = (frames) => frames.filter((f) => f.v === 1).reduce((state, env) => applyEnvelope(state, env), null);

beforeAll(async () => {
  edge = await startEdge({ vars: { FEED_TTL_MS: 50 } });
}, 60_000);

afterAll(async () => {
  await publisher?.close();
  await edge?.stop();
});

test('before anything is published, the lean stream is the root\'s own "not started" snapshot, in its own epoch', async () => {
  const [first] = await getJson('/poll?stream=lean');
  expect(first).toMatchObject({ type: 'snapshot', seq: NONE_SEQ, data: { venue: { status: 'none' } } });
  expect(first.epoch).toMatch(/^none-.*~lean-edge$/);
});

describe('a playing show', () => {
  const epoch = 'lean-a';
  const leanEpoch = `${epoch}${EDGE_LEAN_SUFFIX}`;
  let full;
  let lean;

  beforeAll(async () => {
    ({ publisher } = await openPublisher(edge));
    venue = createStateStream({ epoch, state: playingAt(0), now: Date.now });
    reference = deriveLeanState(null, venue.state());
    expect(await publish(publisher, venue.snapshot().json)).toMatchObject({ type: 'ack', seq: 0 });
    full = await openViewer(edge);
    lean = openSocket(`${edge.wsUrl}/ws?stream=lean`);
    await lean.opened;
  });

  afterAll(async () => {
    await full?.close();
    await lean?.close();
  });

  test('WebSocket: one lean delta per window, an operator action first then its look-ahead, none per beat', async () => {
    const snap = await lean.next();
    expect(snap).toMatchObject({ type: 'snapshot', epoch: leanEpoch, seq: 0 });
    expect(snap.data.position).toBeUndefined();
    expect(snap.data.view).toEqual({ text: 'window 0' });

    // 29 beats inside the first window (a cue's view change among them), then the window moves.
    await beats(WINDOW_BEATS - 1);
    await beats(1);
    // An operator action: the tempo changes the segment.
    bpm = 90;
    const published = Date.now();
    await beats(1);
    const tempoAhead = venue.state().ahead;
    const tempoBeat = beat;
    await full.next((f) => f.seq === beat, 15_000);
    await lean.next((f) => f.seq === 2, 15_000);
    // Its look-ahead waits LOOK_AHEAD_DELAY_MS on the root (nothing else is published meanwhile).
    await lean.next((f) => f.seq === 3, 15_000);
    expect(Date.now() - published).toBeGreaterThanOrEqual(LOOK_AHEAD_DELAY_MS);
    // A barrier: the next window's change is lean seq 4, so nothing else may have come in between.
    await beats(WINDOW_BEATS - (beat % WINDOW_BEATS));
    await lean.next((f) => f.seq === 4, 15_000);
    await full.next((f) => f.seq === beat, 15_000);

    const fullDeltas = full.frames.filter((f) => f.type === 'delta');
    const leanDeltas = lean.frames.filter((f) => f.type === 'delta');
    expect(fullDeltas).toHaveLength(beat);
    expect(leanDeltas.map((f) => [f.epoch, f.seq])).toEqual([
      [leanEpoch, 1],
      [leanEpoch, 2],
      [leanEpoch, 3],
      [leanEpoch, 4],
    ]);
    expect(lean.frames).toHaveLength(5);
    // The window move carries the new ahead and the window's first view; the tempo change the segment.
    expect(leanDeltas[0].data).toMatchObject({ ahead: expect.any(Object), view: { text: 'window 30' } });
    // The new tempo moves the cues ahead too: first the action alone — the segment, the beat and
    // the tempo, the old cues removed, a few hundred bytes — then the new cues (and the beat and
    // tempo gone again: the segment gives them).
    expect(leanDeltas[1].data).toMatchObject({ segment: { bpm: 90 }, ahead: null, tempo: 90, position: { index: tempoBeat } });
    expect(JSON.stringify(leanDeltas[1]).length).toBeLessThan(1024);
    expect(leanDeltas[2].data).toEqual({ ahead: tempoAhead, tempo: null, position: null });
    expect(leanDeltas[3].data).toMatchObject({ ahead: expect.any(Object), view: { text: 'window 60' } });
    // The venue's own rule, applied to the venue's stream, gives the same lean state (plus the edge's venue field).
    expect(held(lean.frames)).toEqual({ ...reference, venue: { status: 'live', since: expect.any(Number) } });
    expect(held(full.frames).position.index).toBe(beat);
  }, 60_000);

  test('a late lean joiner and a resync get the lean snapshot at the lean head', async () => {
    const late = openSocket(`${edge.wsUrl}/ws?stream=lean`);
    await late.opened;
    expect(await late.next()).toMatchObject({ type: 'snapshot', epoch: leanEpoch, seq: 4 });
    late.send({ type: 'resync' });
    const again = await late.next((f) => f.type === 'snapshot');
    expect(again).toMatchObject({ epoch: leanEpoch, seq: 4 });
    expect(again.data).toEqual({ ...reference, venue: expect.any(Object) });
    await late.close();
  });

  test('poll: the lean snapshot, the lean deltas after a gap, a long poll that waits for the next window', async () => {
    await waitFor(async () => (await getJson('/poll?stream=lean'))[0]?.seq === 4, { what: 'the lean cache at seq 4' });
    const [snap] = await getJson('/poll?stream=lean');
    expect(snap).toMatchObject({ type: 'snapshot', epoch: leanEpoch, seq: 4 });
    expect(snap.data.position).toBeUndefined();
    // A gap: the viewer held lean seq 1.
    expect((await getJson(`/poll?stream=lean&since=1&epoch=${leanEpoch}`)).map((e) => [e.type, e.seq])).toEqual([
      ['delta', 2],
      ['delta', 3],
      ['delta', 4],
    ]);
    // The full stream's epoch is foreign to the lean stream: the snapshot. So is the venue's lean
    // epoch (its lean seqs are numbered there, not here).
    expect((await getJson(`/poll?stream=lean&since=1&epoch=${epoch}`)).map((e) => [e.type, e.epoch])).toEqual([['snapshot', leanEpoch]]);
    expect((await getJson(`/poll?stream=lean&since=1&epoch=${epoch}${LEAN_EPOCH_SUFFIX}`)).map((e) => [e.type, e.epoch])).toEqual([
      ['snapshot', leanEpoch],
    ]);
    expect(await getJson(`/poll?stream=lean&since=4&epoch=${leanEpoch}`)).toEqual([]);

    // Beats alone do not end a long poll; the next window does, with exactly one delta.
    const pending = getJson(`/poll?stream=lean&since=4&epoch=${leanEpoch}&wait=20000`);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await beats(WINDOW_BEATS - 1);
    await new Promise((r) => setTimeout(r, 300)); // several FEED_TTL_MS: the cache has seen those beats
    expect(settled).toBe(false);
    await beats(1);
    expect((await pending).map((e) => [e.type, e.seq])).toEqual([['delta', 5]]);
  }, 60_000);

  test('SSE: resumes from Last-Event-ID in the lean seq space, then live lean events', async () => {
    const reading = readSse(`${edge.url}/sse?stream=lean`, { count: 3, headers: { 'last-event-id': '3' }, timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 300));
    await beats(WINDOW_BEATS);
    const { events, contentType } = await reading;
    expect(contentType).toMatch(/text\/event-stream/);
    expect(events.map((e) => [e.id, e.data.type, e.data.epoch])).toEqual([
      ['4', 'delta', leanEpoch],
      ['5', 'delta', leanEpoch],
      ['6', 'delta', leanEpoch],
    ]);
  }, 60_000);

  test('a second action within the look-ahead delay waits its own full delay for its look-ahead', async () => {
    /** When each lean frame arrived, by seq (next() may resolve long after the frame came). */
    const arrived = new Map();
    const stamp = (data) => arrived.set(JSON.parse(String(data)).seq, Date.now());
    lean.ws.on('message', stamp);
    try {
      const start = Math.max(...lean.frames.map((f) => f.seq));
      bpm = 80;
      await beats(1);
      await lean.next((f) => f.seq === start + 1, 15_000);
      // The second action while the first one's look-ahead still waits (its timer set ~250 ms ahead).
      await new Promise((resolve) => setTimeout(resolve, LOOK_AHEAD_DELAY_MS / 2));
      bpm = 100;
      const second = Date.now();
      await beats(1);
      // The first look-ahead goes out before the second action (the stream stays in order), then
      // the second one's look-ahead after its own delay, not when the first one's timer fires.
      await lean.next((f) => f.seq === start + 4, 15_000);
      expect(arrived.get(start + 3)).toBeLessThan(second + LOOK_AHEAD_DELAY_MS);
      expect(arrived.get(start + 4) - second).toBeGreaterThanOrEqual(LOOK_AHEAD_DELAY_MS);
      expect(lean.frames.at(-2).data).toMatchObject({ segment: { bpm: 100 }, ahead: null, tempo: 100 });
      expect(lean.frames.at(-1).data).toEqual({ ahead: venue.state().ahead, tempo: null, position: null });
      expect(held(lean.frames)).toEqual({ ...reference, venue: expect.any(Object) });
    } finally {
      lean.ws.off('message', stamp);
    }
  }, 60_000);

  test("a new epoch starts the lean stream again at the snapshot's seq; a workerd restart keeps its numbers", async () => {
    const next = 'lean-b';
    venue = createStateStream({ epoch: next, state: playingAt(beat, { bpm }), now: Date.now });
    reference = deriveLeanState(null, venue.state());
    await publish(publisher, venue.snapshot().json);
    expect(await lean.next((f) => f.type === 'snapshot' && f.epoch !== leanEpoch)).toMatchObject({
      epoch: `${next}${EDGE_LEAN_SUFFIX}`,
      seq: 0,
    });
    await beats(WINDOW_BEATS - (beat % WINDOW_BEATS));
    await lean.next((f) => f.epoch === `${next}${EDGE_LEAN_SUFFIX}` && f.seq === 1);

    await publisher.close();
    await lean.close();
    await full.close();
    await edge.restart();
    // The root reads its lean stream back: the same epoch and seq, and its deltas for catch-up.
    const nextLean = `${next}${EDGE_LEAN_SUFFIX}`;
    expect((await getJson(`/poll?stream=lean&since=0&epoch=${nextLean}`)).map((e) => [e.type, e.epoch, e.seq])).toEqual([
      ['delta', nextLean, 1],
    ]);
    ({ publisher } = await openPublisher(edge));
    await beats(WINDOW_BEATS);
    await waitFor(async () => (await getJson(`/poll?stream=lean&since=1&epoch=${nextLean}`)).length > 0, {
      what: 'the next lean delta after the restart',
    });
    expect((await getJson(`/poll?stream=lean&since=1&epoch=${nextLean}`)).map((e) => [e.type, e.seq])).toEqual([['delta', 2]]);
    expect(held(await getJson('/poll?stream=lean'))).toEqual({ ...reference, venue: expect.any(Object) });
  }, 90_000);
});
