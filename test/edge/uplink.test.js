// The venue side: createEdgeUplink with a real state stream against the real worker. Whatever
// happens to the connection, the edge's state ends up equal to the stream's.

import { createStateStream, applyEnvelope } from '#core/stream/state-stream.js';
import { PublisherClose } from '#core/protocol/publisher.js';
import { createEdgeUplink } from '../../local-server/src/edge/uplink.js';
import { edgePublishUrl } from '../../local-server/src/edge/edge-url.js';
import { openPublisher, openViewer, publish, showStats, snapshot, startEdge, waitFor, withoutVenue } from './helpers.js';
import { freePort } from '../support/free-port.js';

let edge;
const uplinks = [];
const logs = [];
const log = { info: (m) => logs.push(`info ${m}`), warn: (m) => logs.push(`warn ${m}`) };

function makeStream(epoch, replayLimit = 64) {
  return createStateStream({ epoch, state: { title: `Piece ${epoch}`, beat: 0 }, now: Date.now, replayLimit });
}

function makeUplink(stream, options = {}) {
  const statuses = [];
  const uplink = createEdgeUplink({ url: edge.url, token: edge.token, stream, log, onStatus: (s) => statuses.push(s), ...options });
  uplinks.push(uplink);
  return { uplink, statuses };
}

/** The edge's state as a viewer that applies everything it receives sees it. */
function trackViewer(viewer) {
  const seen = { state: null, epoch: null, seq: null };
  let applied = 0;
  const apply = () => {
    for (; applied < viewer.frames.length; applied += 1) {
      const e = viewer.frames[applied];
      if (e.type !== 'snapshot' && e.type !== 'delta') continue;
      seen.state = applyEnvelope(seen.state, e);
      seen.epoch = e.epoch;
      seen.seq = e.seq;
    }
    return seen;
  };
  return apply;
}

/** @param {ReturnType<typeof makeStream>} stream */
function step(stream, uplink, patch) {
  const update = stream.update({ ...stream.state(), ...patch });
  if (update) uplink.publish(update.json);
  return update;
}

beforeAll(async () => {
  edge = await startEdge({ port: await freePort() });
});

afterEach(async () => {
  await Promise.all(uplinks.splice(0).map((u) => u.close()));
});

afterAll(async () => {
  await edge?.stop();
});

test('edgePublishUrl turns what a person types into the publish endpoint', () => {
  expect(edgePublishUrl('https://edge.example.com').url).toBe('wss://edge.example.com/publish');
  expect(edgePublishUrl('http://127.0.0.1:8787/').url).toBe('ws://127.0.0.1:8787/publish');
  expect(edgePublishUrl('wss://x.dev/show/publish').url).toBe('wss://x.dev/show/publish');
  expect(edgePublishUrl('ftp://x').reason).toMatch(/https:\/\//);
  expect(edgePublishUrl('not a url').reason).toMatch(/must be a URL/);
});

test('connects, sends the snapshot, then each delta once; status reports acks, lag and viewers', async () => {
  const stream = makeStream(`u-${Date.now()}`);
  const { uplink, statuses } = makeUplink(stream);
  await waitFor(() => uplink.status().connected && uplink.status().ackedSeq === 0, { what: 'the first ack' });
  const viewer = await openViewer(edge);
  const seen = trackViewer(viewer);
  await viewer.next((f) => f.type === 'snapshot' && f.epoch === stream.epoch());

  const sent = [];
  for (let beat = 1; beat <= 5; beat += 1) sent.push(step(stream, uplink, { beat }).json);
  for (let i = 0; i < sent.length; i += 1) await viewer.next((f) => f.type === 'delta');
  // The stream's serialized bytes reach the viewer unchanged.
  expect(viewer.raw.slice(-5)).toEqual(sent);
  expect(withoutVenue(seen().state)).toEqual(stream.state());
  await waitFor(() => uplink.status().ackedSeq === 5, { what: 'ack of seq 5' });
  const status = uplink.status();
  expect(status).toMatchObject({ connected: true, ackedEpoch: stream.epoch(), ackedSeq: 5, lag: 0, lastError: null, reconnects: 0 });
  expect(status.url).toBe(edgePublishUrl(edge.url).url);
  expect(status.remoteViewers).toBeGreaterThanOrEqual(1);
  expect(statuses.some((s) => s.connected)).toBe(true);
  expect((await showStats(edge)).frames.resync).toBe(0);
  await viewer.close();
});

test('after the edge was away, it gets exactly the deltas it missed', async () => {
  const stream = makeStream(`gap-${Date.now()}`);
  const { uplink } = makeUplink(stream);
  for (let beat = 1; beat <= 3; beat += 1) step(stream, uplink, { beat });
  await waitFor(() => uplink.status().ackedSeq === 3, { what: 'ack of seq 3' });

  await edge.pause();
  try {
    await waitFor(() => !uplink.status().connected, { what: 'the uplink to notice' });
    // The venue keeps playing; publish() never throws and never queues.
    for (let beat = 4; beat <= 12; beat += 1) expect(() => step(stream, uplink, { beat })).not.toThrow();
    expect(uplink.status()).toMatchObject({ connected: false, ackedSeq: 3, lag: 9 });
    expect(uplink.status().lastError).toBeTruthy();
  } finally {
    await edge.resume();
  }
  // The root was restarted with the worker: its counters start at zero (the uplink may well
  // have caught up before the test could read them, so compare with zero, not a reading).
  await waitFor(() => uplink.status().connected && uplink.status().ackedSeq === 12, { timeoutMs: 20_000, what: 'catch-up to seq 12' });
  const after = await showStats(edge);
  expect(after).toMatchObject({ epoch: stream.epoch(), seq: 12 });
  // Nine deltas, no snapshot, nothing refused.
  expect(after.frames.accepted).toBe(9);
  expect(after.frames.resync).toBe(0);
  expect(uplink.status().reconnects).toBeGreaterThanOrEqual(1);
  const viewer = await openViewer(edge);
  expect(withoutVenue((await viewer.next()).data)).toEqual(stream.state());
  await viewer.close();
});

test('when the edge missed more than the replay window, it gets a snapshot', async () => {
  const stream = makeStream(`far-${Date.now()}`, 4);
  const { uplink } = makeUplink(stream);
  step(stream, uplink, { beat: 1 });
  await waitFor(() => uplink.status().ackedSeq === 1, { what: 'ack of seq 1' });
  await edge.pause();
  try {
    await waitFor(() => !uplink.status().connected, { what: 'the uplink to notice' });
    for (let beat = 2; beat <= 20; beat += 1) step(stream, uplink, { beat, [`k${beat}`]: beat });
  } finally {
    await edge.resume();
  }
  await waitFor(() => uplink.status().ackedSeq === 20, { timeoutMs: 20_000, what: 'snapshot at seq 20' });
  const viewer = await openViewer(edge);
  const first = await viewer.next();
  expect(first).toMatchObject({ type: 'snapshot', epoch: stream.epoch(), seq: 20 });
  expect(withoutVenue(first.data)).toEqual(stream.state());
  await viewer.close();
});

test('a new epoch (score loaded) reaches the edge even without a delta', async () => {
  const stream = makeStream(`ep-${Date.now()}`);
  const { uplink } = makeUplink(stream);
  step(stream, uplink, { beat: 1 });
  await waitFor(() => uplink.status().ackedSeq === 1, { what: 'ack of seq 1' });
  stream.reset(`ep2-${Date.now()}`, { title: 'Another piece' });
  // Not even publish() is called: the periodic check notices the new epoch.
  await waitFor(async () => (await showStats(edge)).epoch === stream.epoch(), { what: 'the new epoch on the edge' });
  expect(uplink.status()).toMatchObject({ ackedEpoch: stream.epoch(), ackedSeq: 0, lag: 0 });
});

test('when someone else changed the edge, the resync brings it back to the stream', async () => {
  const stream = makeStream(`rs-${Date.now()}`);
  const { uplink } = makeUplink(stream);
  step(stream, uplink, { beat: 1 });
  await waitFor(() => uplink.status().ackedSeq === 1, { what: 'ack of seq 1' });
  // A stray POST moves the edge to another epoch behind the uplink's back.
  const res = await fetch(`${edge.url}/publish`, {
    method: 'POST',
    headers: { authorization: `Bearer ${edge.token}` },
    body: JSON.stringify(snapshot('intruder', 50, { x: 1 })),
  });
  expect(res.status).toBe(200);
  step(stream, uplink, { beat: 2 });
  await waitFor(
    async () => {
      const stats = await showStats(edge);
      return stats.epoch === stream.epoch() && stats.seq === 2;
    },
    { what: 'the edge back on the stream' },
  );
  expect(logs.some((l) => l.includes('edge asked for a snapshot'))).toBe(true);
  const viewer = await openViewer(edge);
  expect(withoutVenue((await viewer.next()).data)).toEqual(stream.state());
  await viewer.close();
});

test('a publisher that takes over stops the uplink (no fight back) until resume(), then the stream wins', async () => {
  const stream = makeStream(`fight-${Date.now()}`);
  const { uplink } = makeUplink(stream);
  await waitFor(() => uplink.status().ackedSeq === 0, { what: 'first ack' });
  const { publisher } = await openPublisher(edge);
  await publish(publisher, snapshot('other', 1, { other: true }));
  await waitFor(() => uplink.status().state === 'replaced', { what: 'the uplink to see it was replaced' });
  expect(uplink.status()).toMatchObject({ connected: false, lastError: expect.stringMatching(/^REPLACED/) });
  // Issue 11: reconnecting here would replace the other venue, which would replace us, …
  await new Promise((r) => setTimeout(r, 2500));
  expect(publisher.state.closeCode).toBeNull();
  expect(uplink.status().state).toBe('replaced');
  expect(await showStats(edge)).toMatchObject({ epoch: 'other', publishers: 1 });
  expect(logs.some((l) => l.startsWith('warn') && /REPLACED/.test(l))).toBe(true);

  expect(uplink.resume()).toBe(true);
  await waitFor(() => uplink.status().connected && uplink.status().ackedEpoch === stream.epoch(), {
    timeoutMs: 15_000,
    what: 'the uplink to reconnect',
  });
  expect(await publisher.closed).toBe(PublisherClose.REPLACED);
  expect(uplink.resume()).toBe(false); // not replaced any more
  step(stream, uplink, { beat: 9 });
  await waitFor(async () => (await showStats(edge)).seq === 1 && (await showStats(edge)).epoch === stream.epoch(), { what: 'converged' });
});

test('a wrong token: never throws, reports UNAUTHORIZED, keeps trying', async () => {
  const stream = makeStream(`bad-${Date.now()}`);
  const { uplink } = makeUplink(stream, { token: 'wrong' });
  await waitFor(() => /UNAUTHORIZED/.test(uplink.status().lastError ?? ''), { what: 'the 401 to show in status' });
  expect(() => step(stream, uplink, { beat: 1 })).not.toThrow();
  expect(uplink.status()).toMatchObject({ connected: false, ackedSeq: null, lag: null });
  expect(logs.some((l) => l.startsWith('warn') && /UNAUTHORIZED/.test(l))).toBe(true);
  expect(logs.join('\n')).not.toContain(edge.token);
});

test('a bad URL is reported, not thrown', async () => {
  const stream = makeStream('url');
  const uplink = createEdgeUplink({ url: 'nope', token: 't', stream, log });
  uplinks.push(uplink);
  expect(uplink.status()).toMatchObject({ connected: false, lastError: expect.stringMatching(/BAD_URL/) });
  expect(() => uplink.publish('{}')).not.toThrow();
});
