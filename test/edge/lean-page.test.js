// The audience page at the edge reads the lean stream (docs/reference/audience-protocol.md#endpoints; edge-worker/
// docs/explanation/lean-stream.md#how-it-works), in real Chromium against local workerd: its WebSocket (and, with
// no WebSocket, its SSE stream) asks for `stream=lean`, it holds the lean epoch, and while the
// venue publishes a delta per beat the page receives its snapshot and nothing else, yet its beat
// display keeps moving (the flywheel); the next ahead window arrives as one message.

/* global document, window */
import { openPage, waitInPage } from '../audience/support/browser.js';
import { createStateStream } from '#core/stream/state-stream.js';
import { EDGE_LEAN_SUFFIX } from '../../edge-worker/src/show/lean-feed.js';
import { startEdgeAndBrowser } from './page-suite.js';
import { openPublisher, publish } from './helpers.js';
import { BEAT_MS, WINDOW_BEATS, playingAt } from './lean-show.js';

let edge;
let browser;
let stop;

beforeAll(async () => {
  ({ edge, browser, stop } = await startEdgeAndBrowser());
}, 180_000);

afterAll(async () => {
  await stop?.();
});

/** A page that records the URLs it asks for and the envelopes its WebSocket receives. */
async function pageAt(path, { noWebSocket = false } = {}) {
  const opened = await openPage(browser);
  const requests = [];
  const envelopes = [];
  opened.page.on('request', (r) => requests.push(r.url()));
  opened.page.on('websocket', (ws) => {
    requests.push(ws.url());
    ws.on('framereceived', (frame) => {
      const message = JSON.parse(String(frame.payload));
      if (message.v === 1) envelopes.push(message);
    });
  });
  if (noWebSocket) await opened.page.addInitScript(() => delete window.WebSocket);
  await opened.page.goto(`${edge.url}${path}`);
  return { ...opened, requests, envelopes };
}

test('the page at the edge asks for stream=lean (WebSocket and SSE) and gets one message per window, not per beat', async () => {
  const t0 = Date.now() + 1000;
  const epoch = 'page-lean';
  const venue = createStateStream({ epoch, state: playingAt(0, { t0 }), now: Date.now });
  const { publisher } = await openPublisher(edge);
  await publish(publisher, venue.snapshot().json);

  const onWs = await pageAt('/');
  const onSse = await pageAt('/', { noWebSocket: true });
  const leanEpoch = `${epoch}${EDGE_LEAN_SUFFIX}`;
  for (const { page } of [onWs, onSse]) await waitInPage(page, (e) => window.__tutti?.epoch() === e, leanEpoch);
  expect(onWs.requests.filter((u) => u.startsWith('ws')).every((u) => new URL(u).searchParams.get('stream') === 'lean')).toBe(true);
  expect(onSse.requests.some((u) => new URL(u).pathname === '/sse' && new URL(u).searchParams.get('stream') === 'lean')).toBe(true);

  // Beats in real time for 3 s: a delta per beat from the venue, none to the pages.
  let beat = 0;
  const advance = async () => {
    beat += 1;
    await publish(publisher, venue.update(playingAt(beat, { t0 })).json);
  };
  while (beat < 8) {
    await new Promise((r) => setTimeout(r, Math.max(0, t0 + (beat + 1) * BEAT_MS - Date.now())));
    await advance();
  }
  // The flywheel moves the beat display by itself: bar 2 is beats 4–7.
  for (const { page } of [onWs, onSse]) await waitInPage(page, () => Number(document.getElementById('bar')?.textContent) >= 2);
  expect(onWs.envelopes.map((e) => [e.type, e.epoch, e.seq])).toEqual([['snapshot', leanEpoch, 0]]);
  expect(await onSse.page.evaluate(() => window.__tutti.seq())).toBe(0);

  // The window moves: one lean delta.
  while (beat < WINDOW_BEATS) await advance();
  for (const { page } of [onWs, onSse]) await waitInPage(page, () => window.__tutti.seq() === 1);
  expect(onWs.envelopes.map((e) => [e.type, e.seq])).toEqual([
    ['snapshot', 0],
    ['delta', 1],
  ]);
  expect(await onWs.page.evaluate(() => window.__tutti.lean().position)).toBeUndefined();

  await publisher.close();
  for (const opened of [onWs, onSse]) {
    await opened.context.close();
    expect(opened.problems).toEqual([]);
  }
}, 120_000);
