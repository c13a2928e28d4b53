// The prompt on real phones (docs/reference/audience-protocol.md#audience-voices): real Chromium pages against the real
// show server. The buttons appear when the prompt opens and go when it closes, on the page's
// synced clock; a tap votes over the WebSocket, a page without WebSocket (SSE) votes with POST
// /vote; a changed mind and a reload count once; the result is shown; then the Tap button of a
// reaction window sends the page's taps.
import { expect, test, beforeAll, afterAll } from '@jest/globals';
import { launchBrowser, openPage, startShow, waitInPage } from './support/browser.js';
import { acquireBrowserLock } from './support/exclusive.js';
import { waitFor } from '../support/clients.js';
import { writeVoteScore } from '../support/vote-score.js';

let browser;
let show;
let release;
beforeAll(async () => {
  release = await acquireBrowserLock();
  // 24 beats at 240 bpm: open 6 s from bar 2
  [browser, show] = await Promise.all([launchBrowser(), startShow({ scorePath: writeVoteScore({ beats: 24 }), autoplay: false })]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await show?.close();
  await release?.();
});

const synced = () => window.__tutti.connection().live && window.__tutti.clock() && window.__tutti.clock().total >= 8;

test('buttons exactly while the prompt is open, a tap counted once per phone over WebSocket and POST, then the result', async () => {
  const ws = await openPage(browser);
  const sse = await openPage(browser);
  // A browser without WebSocket: the page falls back to SSE and votes with POST /vote.
  await sse.context.addInitScript(() => {
    delete window.WebSocket;
  });
  await Promise.all([ws.page.goto(`${show.audienceUrl}/`), sse.page.goto(`${show.audienceUrl}/`)]);
  await Promise.all([waitInPage(ws.page, synced), waitInPage(sse.page, synced)]);
  expect(await sse.page.evaluate(() => window.__tutti.connection().transport)).toBe('sse');
  expect(await ws.page.isVisible('#vote')).toBe(false);

  show.show.engine.play();
  await waitInPage(ws.page, () => window.__tutti.vote().phase === 'open');
  expect(await ws.page.textContent('#vote-q')).toBe('Which way?');
  expect(await ws.page.$$eval('.vote-option', (b) => b.map((x) => x.textContent))).toEqual(['To C', 'To D', 'Stay']);
  await ws.page.click('[data-option="d"]');
  await waitInPage(sse.page, () => window.__tutti.vote().phase === 'open');
  await sse.page.click('[data-option="d"]');
  await waitFor(() => show.votes.status()?.total === 2, 5000, 'two votes at the server');
  // The WebSocket page changes its mind: still one vote for that phone.
  await ws.page.click('[data-option="c"]');
  await waitFor(() => show.votes.status()?.options[0].count === 1, 5000, 'the changed vote');
  expect(show.votes.status()).toMatchObject({
    total: 2,
    options: [
      { id: 'c', count: 1 },
      { id: 'd', count: 1 },
      { id: 'stay', count: 0 },
    ],
  });
  expect(await ws.page.getAttribute('[data-option="c"]', 'aria-pressed')).toBe('true');
  await waitInPage(ws.page, () => document.getElementById('vote-result').textContent.startsWith('Your vote is in'));
  await waitInPage(sse.page, () => window.__tutti.vote().answer?.ok === true);

  // The SSE phone reloads (same storage, same device id) and votes again: still one vote.
  const before = await sse.page.evaluate(() => window.__tutti.vote().device);
  await sse.page.reload();
  await waitInPage(sse.page, () => window.__tutti.vote && window.__tutti.vote().phase === 'open');
  expect(await sse.page.evaluate(() => window.__tutti.vote().device)).toBe(before);
  await sse.page.click('[data-option="stay"]');
  await waitFor(() => show.votes.status()?.options[2].count === 1, 5000, "the reloaded phone's vote");
  expect(show.votes.status()).toMatchObject({ total: 2, options: [{ count: 1 }, { count: 0 }, { count: 1 }] });

  // Closed on time, then the result: a tie between c and stay goes to c (written first).
  await waitInPage(ws.page, () => window.__tutti.vote().phase === 'result', undefined, 15_000);
  const seen = await ws.page.evaluate(() => window.__tutti.vote());
  const vote = await ws.page.evaluate(() => window.__tutti.state().vote);
  // Shown and hidden on the synced clock: within a few timer ticks of opens/closes (generous for a loaded machine).
  expect(seen.shownAt - vote.opens).toBeGreaterThanOrEqual(0);
  expect(seen.shownAt - vote.opens).toBeLessThan(60);
  expect(seen.hiddenAt - vote.closes).toBeGreaterThanOrEqual(0);
  expect(seen.hiddenAt - vote.closes).toBeLessThan(60);
  expect(await ws.page.isDisabled('[data-option="c"]')).toBe(true);
  expect(await ws.page.textContent('#vote-result')).toBe('To C: 1 of 2 votes');
  expect(vote).toMatchObject({ closed: true, winner: 'c', counts: [1, 0, 1], total: 2 });

  // The winner c jumps to section C (bar 9); at bar 13 the reaction window opens: the Tap button
  // appears and the page's taps reach the server (reported 4 times a second at most).
  await waitInPage(ws.page, () => window.__tutti.reaction().open, undefined, 20_000);
  expect(await ws.page.textContent('#react-tap')).toBe('Tap');
  for (let i = 0; i < 6; i += 1) await ws.page.click('#react-tap');
  await waitFor(
    async () => /tutti_taps_total\{where="venue"\} 6\b/.test(await show.metrics.exposition()),
    5000,
    "the page's 6 taps at the server",
  );
  expect(await ws.page.evaluate(() => window.__tutti.reaction().sent)).toBe(6);
  expect([...ws.problems, ...sse.problems.filter((p) => !/WebSocket/.test(p))]).toEqual([]);
  await ws.context.close();
  await sse.context.close();
}, 60_000);
