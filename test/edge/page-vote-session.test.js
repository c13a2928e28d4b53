// The audience page votes through the edge with a session (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): in real
// Chromium without WebSocket (so on SSE, voting with POST vote), the page's first vote is refused
// 403 SESSION, it joins (POST session) and sends it again with the signed session; the edge
// counts it, and the next vote goes with the session at once. Before the page knew sessions, the
// edge answered its POST vote 403 SESSION and nothing was counted. Real local workerd.

/* global window */
import { openPage, waitInPage } from '../audience/support/browser.js';
import { startEdgeAndBrowser } from './page-suite.js';
import { openPublisher, publish, showStats, snapshot, waitFor } from './helpers.js';

let edge;
let browser;
let stop;
let publisher;

beforeAll(async () => {
  ({ edge, browser, stop } = await startEdgeAndBrowser({ direct: true }));
  ({ publisher } = await openPublisher(edge));
}, 180_000);

afterAll(async () => {
  publisher?.ws.terminate();
  await stop?.();
});

test('an SSE page joins and its POST vote is counted by the edge', async () => {
  const now = Date.now();
  const vote = {
    id: 'path',
    key: 'path~page1',
    q: 'Which way?',
    options: [
      { id: 'left', label: 'Left' },
      { id: 'right', label: 'Right' },
    ],
    opens: now - 1000,
    closes: now + 120_000,
    counts: [0, 0],
    total: 0,
  };
  await publish(publisher, snapshot('page-vote', 1, { score: { title: 'Votes', bars: 8 }, transport: 'stopped', tempo: 96, vote }));
  const opened = await openPage(browser);
  const requests = [];
  opened.page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
  await opened.page.addInitScript(() => delete window.WebSocket);
  await opened.page.goto(`${edge.url}/`);
  await waitInPage(opened.page, () => window.__tutti.vote && window.__tutti.vote().phase === 'open');
  expect(await opened.page.evaluate(() => window.__tutti.connection().transport)).toBe('sse');
  await opened.page.click('[data-option="right"]');
  await waitInPage(opened.page, () => window.__tutti.vote().answer?.ok === true);
  await waitFor(async () => (await showStats(edge)).votes.total === 1, { timeoutMs: 10_000, what: "the edge to count the page's vote" });
  expect(requests.filter((r) => r === 'POST /session')).toHaveLength(1);
  expect(requests.filter((r) => r === 'POST /vote')).toHaveLength(2);
  // A changed mind: one more POST vote, with the session it holds; still one voice.
  await opened.page.click('[data-option="left"]');
  await waitFor(async () => (await showStats(edge)).votes.counts?.[0] === 1, { timeoutMs: 10_000, what: 'the changed vote' });
  expect((await showStats(edge)).votes.total).toBe(1);
  expect(requests.filter((r) => r === 'POST /session')).toHaveLength(1);
  expect(requests.filter((r) => r === 'POST /vote')).toHaveLength(3);
  await opened.context.close();
}, 120_000);
