// The audience page of a named show (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge), in real Chromium
// against local workerd: opened at /s/<show>/ it shows that show, follows that show's updates and
// not another's, over WebSocket and (with no WebSocket) over SSE, and every request it makes
// stays in the show's folder. Screenshot: artifacts/audience/edge-show-a.png.

/* global document, window */
import { ARTIFACTS, openPage, waitInPage } from '../audience/support/browser.js';
import { startEdgeAndBrowser } from './page-suite.js';
import { delta, openPublisher, publish, snapshot } from './helpers.js';

let edge;
let browser;
let stop;
const publishers = [];

beforeAll(async () => {
  ({ edge, browser, stop } = await startEdgeAndBrowser({ vars: { SHOWS: '*' } }));
}, 180_000);

afterAll(async () => {
  await Promise.all(publishers.map((p) => p.close()));
  await stop?.();
});

/** A playing show's state, as the venue server publishes it. */
function playing(title, bar) {
  return {
    score: { title, bars: 32 },
    transport: 'playing',
    tempo: 96,
    position: { index: bar * 4, bar, beat: 1, beats: 4, at: Date.now() + 300 },
  };
}

async function publisherOf(prefix) {
  const { publisher } = await openPublisher({ wsUrl: `${edge.wsUrl}${prefix}`, token: edge.token });
  publishers.push(publisher);
  return publisher;
}

/** A page at `path` that records every URL it requests (and, with noWebSocket, has no WebSocket). */
async function pageAt(path, { noWebSocket = false } = {}) {
  const opened = await openPage(browser);
  const requests = [];
  opened.page.on('request', (r) => requests.push(r.url()));
  opened.page.on('websocket', (ws) => requests.push(ws.url()));
  if (noWebSocket) await opened.page.addInitScript(() => delete window.WebSocket);
  await opened.page.goto(`${edge.url}${path}`);
  return { ...opened, requests };
}

test('a page under /s/<show>/ shows that show and only its updates (WebSocket and SSE)', async () => {
  const a = await publisherOf('/s/a');
  const b = await publisherOf('/s/b');
  const main = await publisherOf('');
  await publish(a, snapshot('page-a', 1, playing('Show A', 3)));
  await publish(b, snapshot('page-b', 1, playing('Show B', 7)));
  await publish(main, snapshot('page-main', 1, playing('Default show', 11)));

  const pageA = await pageAt('/s/a/');
  const pageB = await pageAt('/s/b', { noWebSocket: true }); // redirected into its folder
  const pageMain = await pageAt('/');
  await waitInPage(pageA.page, () => document.getElementById('title')?.textContent === 'Show A');
  await waitInPage(pageB.page, () => document.getElementById('title')?.textContent === 'Show B');
  await waitInPage(pageMain.page, () => document.getElementById('title')?.textContent === 'Default show');
  expect(await pageA.page.textContent('#bar')).toBe('3');
  expect(await pageB.page.textContent('#bar')).toBe('7');
  expect(pageB.page.url()).toBe(`${edge.url}/s/b/`);

  // Show a moves on; b's page does not move with it, and then follows its own show.
  await publish(a, delta('page-a', 2, { position: { index: 20, bar: 5, beat: 1, beats: 4, at: Date.now() + 300 } }));
  await waitInPage(pageA.page, () => document.getElementById('bar')?.textContent === '5');
  await publish(b, delta('page-b', 2, { score: { title: 'Show B, part two' } }));
  await waitInPage(pageB.page, () => document.getElementById('title')?.textContent === 'Show B, part two');
  expect(await pageB.page.textContent('#bar')).toBe('7');
  expect(await pageA.page.textContent('#title')).toBe('Show A');
  expect(await pageMain.page.textContent('#title')).toBe('Default show');
  await pageA.page.screenshot({ path: `${ARTIFACTS}edge-show-a.png` });

  // Every request of a show's page stays in its folder (the live routes and the assets).
  const outside = (requests, folder) => requests.filter((u) => !u.startsWith('data:') && !new URL(u).pathname.startsWith(folder));
  expect(outside(pageA.requests, '/s/a/')).toEqual([]);
  expect(
    outside(
      pageB.requests.filter((u) => u !== `${edge.url}/s/b`),
      '/s/b/',
    ),
  ).toEqual([]);
  expect(pageA.requests.some((u) => /^ws:\/\/[^/]+\/s\/a\/ws/.test(u))).toBe(true);
  expect(pageB.requests.some((u) => /\/s\/b\/sse/.test(u))).toBe(true);
  for (const p of [pageA, pageB, pageMain]) {
    expect(p.problems).toEqual([]);
    await p.context.close();
  }
}, 120_000);
