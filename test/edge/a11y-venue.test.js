// The audience page's venue-offline states on the edge (docs/reference/accessibility-and-languages.md#accessibility),
// in real Chromium against local workerd: "not started yet" and "the venue is offline" have no
// axe violations, and each notice is spoken once — "not started" politely, "offline" at once
// (assertive). Screenshots: artifacts/audience/a11y-edge-*.png.

/* global window, document */
import { ARTIFACTS, openPage, waitInPage } from '../audience/support/browser.js';
import { audit, describeViolations } from '../audience/support/axe.js';
import { installProbes } from '../audience/support/a11y-probes.js';
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

const playing = (bar) => ({
  score: { title: 'Offline test', bars: 32 },
  transport: 'playing',
  tempo: 96,
  sections: undefined,
  position: { index: bar * 4, bar, beat: 1, beats: 4, at: Date.now() + 300 },
});

test('venue not started and venue offline: no axe violations; each notice spoken once', async () => {
  const { context, page } = await openPage(browser);
  await context.addInitScript(installProbes);
  await page.goto(`${edge.url}/`);
  await waitInPage(page, () => document.getElementById('venue-notice')?.hidden === false);
  expect(describeViolations(await audit(page))).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}a11y-edge-not-started.png` });

  const { publisher } = await openPublisher(edge);
  await publish(publisher, snapshot('page', 1, playing(5)));
  await waitInPage(page, () => document.getElementById('venue-notice')?.hidden === true);
  publisher.ws.terminate();
  await waitInPage(page, () => document.body.dataset.venue === 'lost', undefined, 15_000);
  await waitInPage(page, () => window.__live.some((s) => s.id === 'announce-urgent'));
  expect(describeViolations(await audit(page))).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}a11y-edge-offline.png` });

  const said = await page.evaluate(() => window.__live.filter((s) => /venue|show/.test(s.text)));
  expect(said.map((s) => [s.id, s.text.split('.')[0]])).toEqual([
    ['announce', 'The show has not started yet'],
    ['announce-urgent', expect.stringMatching(/^The venue is offline/)],
  ]);
  await context.close();
}, 120_000);
