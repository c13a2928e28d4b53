// The edge never shows a dead show as live (issue 12 §3): the root merges
// `venue: {status, since}` into the state it publishes, so WS, SSE and poll viewers all learn
// within seconds that the venue is gone — even when the venue dies without closing its socket —
// and see it come back by itself. Before anything is published the state says "none".

import { createSseParser } from '#core/protocol/sse-parser.js';
import { PublisherClose } from '#core/protocol/publisher.js';
import { startServeChild } from './serve-child.js';
import { openPublisher, openViewer, publish, showStats, snapshot, startEdge, waitFor } from './helpers.js';

/** An SSE viewer that records every event with the time it arrived (bounded by stop()). */
function sseRecorder(url) {
  const events = [];
  const controller = new AbortController();
  const done = (async () => {
    try {
      const res = await fetch(`${url}/sse`, { signal: controller.signal });
      const decoder = new TextDecoder();
      const parser = createSseParser((event) => events.push({ at: Date.now(), data: JSON.parse(event.data) }));
      for await (const chunk of res.body) parser.push(decoder.decode(chunk, { stream: true }));
    } catch {
      // aborted
    }
  })();
  return {
    events,
    stop: () => {
      controller.abort();
      return done;
    },
  };
}

/** A polling viewer (GET /poll?since=…, as the audience app's fallback) that records envelopes. */
function pollRecorder(url) {
  const events = [];
  let since = null;
  let running = true;
  const done = (async () => {
    // Bounded: stop() ends it, and each round waits at most 2 s.
    while (running) {
      try {
        const res = await fetch(`${url}/poll?wait=2000${since === null ? '' : `&since=${since}`}`);
        for (const env of await res.json()) {
          events.push({ at: Date.now(), data: env });
          since = env.seq;
        }
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  })();
  return {
    events,
    stop: () => {
      running = false;
      return done;
    },
  };
}

const venueIn = (env) => env?.data?.venue?.status ?? null;
const lastVenue = (list) => venueIn(list.filter((e) => e.data?.type === 'snapshot' || e.data?.type === 'delta').at(-1)?.data);
const firstAt = (list, status, after) => list.find((e) => e.at >= after && venueIn(e.data) === status)?.at ?? null;

describe('a fresh edge', () => {
  let edge;
  beforeAll(async () => {
    edge = await startEdge();
  });
  afterAll(async () => {
    await edge?.stop();
  });

  test('before anything is published every transport says venue "none", and so does /healthz', async () => {
    expect(await (await fetch(`${edge.url}/healthz`)).json()).toMatchObject({ ok: true, venue: 'none' });
    const viewer = await openViewer(edge);
    expect(await viewer.next()).toMatchObject({ type: 'snapshot', data: { venue: { status: 'none' } } });
    const poll = await (await fetch(`${edge.url}/poll`)).json();
    expect(poll).toMatchObject([{ type: 'snapshot', data: { venue: { status: 'none' } } }]);
    // The publisher is told the edge has nothing of its own: it starts with a snapshot.
    const { publisher, hello } = await openPublisher(edge);
    expect(hello).toMatchObject({ epoch: null, seq: null });
    expect(await publish(publisher, snapshot('first', 0, { title: 'First' }))).toMatchObject({ type: 'ack', epoch: 'first', seq: 0 });
    expect(await viewer.next()).toMatchObject({ type: 'snapshot', epoch: 'first', data: { title: 'First', venue: { status: 'live' } } });
    // A poller that had the "none" state gets the real one.
    const after = await (await fetch(`${edge.url}/poll?since=${poll[0].seq}&wait=3000`)).json();
    expect(after).toMatchObject([{ type: 'snapshot', epoch: 'first', data: { venue: { status: 'live' } } }]);
    expect(await (await fetch(`${edge.url}/healthz`)).json()).toMatchObject({ venue: 'live', venueSince: expect.any(Number) });
    // The venue field is the edge's: a publisher cannot fake it.
    expect(await publish(publisher, snapshot('first', 1, { title: 'First', venue: { status: 'none', since: 1 } }))).toMatchObject({
      type: 'ack',
      seq: 1,
    });
    expect(await viewer.next()).toMatchObject({ seq: 1, data: { venue: { status: 'live' } } });
    expect(
      await publish(publisher, { v: 1, type: 'delta', epoch: 'first', seq: 2, t: Date.now(), data: { venue: { status: 'lost' } } }),
    ).toMatchObject({ type: 'error', code: 'BAD_FRAME' });
    await publisher.close();
    await viewer.close();
  });
});

describe('a venue server killed mid-show (SIGKILL)', () => {
  let edge;
  let venue;
  beforeAll(async () => {
    edge = await startEdge();
  });
  afterAll(async () => {
    await venue?.kill('SIGKILL');
    await edge?.stop();
  });

  test('WS, SSE and poll viewers learn "venue lost" within 10 s; it comes back by itself with a new venue server', async () => {
    venue = await startServeChild(edge);
    await waitFor(async () => (await venue.status()).edge.connected, { what: 'the venue on the edge', timeoutMs: 20_000 });
    const ws = await openViewer(edge);
    const sse = sseRecorder(edge.url);
    const poll = pollRecorder(edge.url);
    await waitFor(() => [ws.frames.map((data) => ({ data })), sse.events, poll.events].every((list) => lastVenue(list) === 'live'), {
      what: 'all viewers live',
      timeoutMs: 15_000,
    });
    expect((await showStats(edge)).venue.status).toBe('live');
    // The venue's console and metrics say what remote viewers see (the edge's /healthz).
    await waitFor(async () => (await venue.status()).edge.venue?.status === 'live', {
      what: "the venue to read the edge's venue status",
      timeoutMs: 12_000,
    });
    await waitFor(async () => /^tutti_edge_venue\{status="live"\} 1$/m.test((await venue.api('/metrics')).body), {
      what: 'tutti_edge_venue{status="live"} 1',
      timeoutMs: 5000,
    });

    const killedAt = Date.now();
    await venue.kill('SIGKILL');
    const wsTimes = [];
    ws.ws.on('message', (d) => wsTimes.push({ at: Date.now(), data: JSON.parse(String(d)) }));
    await waitFor(
      () =>
        firstAt(wsTimes, 'lost', killedAt) !== null &&
        firstAt(sse.events, 'lost', killedAt) !== null &&
        firstAt(poll.events, 'lost', killedAt) !== null,
      { what: 'every transport to say lost', timeoutMs: 20_000 },
    );
    const took = {
      ws: firstAt(wsTimes, 'lost', killedAt) - killedAt,
      sse: firstAt(sse.events, 'lost', killedAt) - killedAt,
      poll: firstAt(poll.events, 'lost', killedAt) - killedAt,
    };
    console.log(`SIGKILL → "venue lost": WS ${took.ws} ms, SSE ${took.sse} ms, poll ${took.poll} ms`);
    for (const ms of Object.values(took)) expect(ms).toBeLessThan(10_000);
    const health = await (await fetch(`${edge.url}/healthz`)).json();
    expect(health).toMatchObject({ venue: 'lost', venueSince: expect.any(Number) });
    expect(health.venueSince).toBeGreaterThanOrEqual(killedAt);
    // The last state is kept (marked lost), not thrown away.
    expect(wsTimes.find((e) => venueIn(e.data) === 'lost').data.data.score).toBeTruthy();

    // The venue comes back (a restart): every viewer sees it live again, nobody reloads.
    const backAt = Date.now();
    venue = await startServeChild(edge);
    await waitFor(
      () =>
        firstAt(wsTimes, 'live', backAt) !== null &&
        firstAt(sse.events, 'live', backAt) !== null &&
        firstAt(poll.events, 'live', backAt) !== null,
      { what: 'every transport live again', timeoutMs: 20_000 },
    );
    expect((await (await fetch(`${edge.url}/healthz`)).json()).venue).toBe('live');
    await waitFor(async () => (await venue.status()).edge.venue?.status === 'live', {
      what: 'the new venue to read "live"',
      timeoutMs: 12_000,
    });
    await ws.close();
    await sse.stop();
    await poll.stop();
  }, 90_000);
});

describe('a publisher that hangs, a restart, an old show', () => {
  let edge;
  beforeAll(async () => {
    edge = await startEdge({ vars: { VENUE_LOST_MS: 2000, VENUE_EXPIRE_MS: 6000 } });
  });
  afterAll(async () => {
    await edge?.stop();
  });

  test('a publisher whose socket stays open but says nothing is closed (4002) and the venue marked lost', async () => {
    const { publisher } = await openPublisher(edge, edge.token, { alive: false });
    await publish(publisher, snapshot('hang', 1, { title: 'Hanging', transport: 'playing' }));
    const viewer = await openViewer(edge);
    expect(await viewer.next()).toMatchObject({ data: { venue: { status: 'live' } } });
    const started = Date.now();
    expect(await viewer.next((f) => f.data?.venue?.status === 'lost', 10_000)).toMatchObject({
      type: 'snapshot',
      data: { title: 'Hanging' },
    });
    expect(Date.now() - started).toBeLessThan(2000 + 3000);
    expect(await publisher.closed).toBe(PublisherClose.SILENT);
    expect((await showStats(edge)).frames.venueLost).toBeGreaterThanOrEqual(1);
    await viewer.close();
  });

  test('a live show whose publisher is gone does not come back "live" after an edge restart', async () => {
    const { publisher } = await openPublisher(edge);
    await publish(publisher, snapshot('restart', 1, { title: 'Across a restart' }));
    expect((await showStats(edge)).venue.status).toBe('live');
    publisher.ws.terminate(); // the venue goes away while the edge is down: no one reconnects
    await edge.restart();
    const viewer = await openViewer(edge);
    const first = await viewer.next();
    // The stored state may still say live for a moment; within VENUE_LOST_MS (+ alarm) it is lost.
    const lost = first.data?.venue?.status === 'lost' ? first : await viewer.next((f) => f.data?.venue?.status === 'lost', 10_000);
    expect(lost).toMatchObject({ data: { title: 'Across a restart', venue: { status: 'lost' } } });
    await viewer.close();
  });

  test('a show lost for longer than VENUE_EXPIRE_MS is over: the state becomes "none"', async () => {
    const viewer = await openViewer(edge);
    const seen = await viewer.next((f) => f.data?.venue?.status === 'none', 15_000);
    expect(seen).toMatchObject({ type: 'snapshot', data: { venue: { status: 'none' } } });
    expect(seen.data.title).toBeUndefined();
    expect((await (await fetch(`${edge.url}/healthz`)).json()).venue).toBe('none');
    await viewer.close();
  }, 30_000);
});
