// The audience page on the edge, in real Chromium against local workerd (issue 12 §3): before
// anything is published it says the show has not started (not "connecting…" forever); when the
// venue goes away mid-show it stops the beat display and says the venue is offline; when the
// venue is back it carries on by itself. Screenshots: artifacts/audience/edge-venue-*.png.

/* global document, getComputedStyle */
import { ARTIFACTS, openPage, waitInPage } from '../audience/support/browser.js';
import { startEdgeAndBrowser } from './page-suite.js';
import { openPublisher, publish, snapshot } from './helpers.js';

let edge;
let browser;
let stop;

beforeAll(async () => {
  ({ edge, browser, stop } = await startEdgeAndBrowser({ vars: { VENUE_LOST_MS: 2000 } }));
}, 180_000);

afterAll(async () => {
  await stop?.();
});

/** A playing show's state, as the venue server publishes it (docs/README.md, state section). */
function playing(bar) {
  return {
    score: { title: 'Offline test', bars: 32 },
    transport: 'playing',
    tempo: 96,
    position: { index: bar * 4, bar, beat: 1, beats: 4, at: Date.now() + 300 },
  };
}

const notice = (page) =>
  page.evaluate(() => {
    const el = document.getElementById('venue-notice');
    return el && !el.hidden ? el.textContent : null;
  });
const visible = (page, id) =>
  page.evaluate((name) => {
    const el = document.getElementById(name);
    return Boolean(el && !el.hidden && getComputedStyle(el).display !== 'none');
  }, id);

test('not started → playing → venue offline (beat display stopped) → playing again, by itself', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(`${edge.url}/`);
  await waitInPage(page, () => document.getElementById('venue-notice')?.hidden === false);
  expect(await notice(page)).toMatch(/has not started yet/);
  // Connected and told so, not a red "connecting…".
  await waitInPage(page, () => !/connecting/.test(document.getElementById('conn-text')?.textContent ?? ''));
  expect(await visible(page, 'counter')).toBe(false);
  await page.screenshot({ path: `${ARTIFACTS}edge-venue-not-started.png` });

  const { publisher } = await openPublisher(edge);
  await publish(publisher, snapshot('page', 1, playing(5)));
  await waitInPage(page, () => document.getElementById('venue-notice')?.hidden === true);
  await waitInPage(page, () => /playing/.test(document.getElementById('transport')?.textContent ?? ''));
  expect(await visible(page, 'transport')).toBe(true);
  expect(await page.textContent('#bar')).toBe('5');

  // The venue disappears without a word (its socket just stops).
  publisher.ws.terminate();
  await waitInPage(page, () => document.getElementById('venue-notice')?.hidden === false, undefined, 15_000);
  expect(await notice(page)).toMatch(/venue is offline/);
  expect(await visible(page, 'transport')).toBe(false); // no "▶ playing"
  expect(await visible(page, 'beats')).toBe(false);
  expect(await page.evaluate(() => document.body.dataset.venue)).toBe('lost');
  // The last bar stays, dimmed (after the beat pulse the page gave the arriving state, 180 ms).
  await page.waitForTimeout(400);
  expect(Number(await page.evaluate(() => getComputedStyle(document.getElementById('counter')).opacity))).toBeLessThan(0.5);
  await page.screenshot({ path: `${ARTIFACTS}edge-venue-offline.png` });

  // Back: a new publisher (a restarted venue server) sends its snapshot.
  const { publisher: again } = await openPublisher(edge);
  await publish(again, snapshot('page-2', 1, playing(9)));
  await waitInPage(page, () => document.getElementById('venue-notice')?.hidden === true, undefined, 15_000);
  await waitInPage(page, () => document.getElementById('bar')?.textContent === '9');
  expect(await visible(page, 'transport')).toBe(true);
  expect(await page.evaluate(() => document.body.dataset.venue ?? null)).toBeNull();
  await again.close();
  await page.context().close();
  expect(problems).toEqual([]);
}, 120_000);
