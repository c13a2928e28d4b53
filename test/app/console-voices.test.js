// The console's "Audience voices" card in real Chromium against a real show server (docs/reference/audience-protocol.md#audience-voices)
// : the open prompt as a live bar chart fed by real WebSocket viewers' votes,
// the winner and the branch once it closes, and the reaction level as a meter.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { startShowServer } from '../../local-server/src/server.js';
import { openWs, waitFor } from '../support/clients.js';
import { acquireBrowserLock } from '../audience/support/exclusive.js';
import { launchBrowser } from '../audience/support/browser.js';
import { writeVoteScore, deviceId } from '../support/vote-score.js';

const TOKEN = 'console-voices-token';
let server;
let browser;
let page;
let releaseLock;
const pageErrors = [];
const viewers = [];

beforeAll(async () => {
  releaseLock = await acquireBrowserLock();
  // open 16 beats (4 s) from bar 2; the reaction window from bar 13 (where the winner d jumps)
  server = await startShowServer({ scorePath: writeVoteScore({ beats: 16 }), host: '127.0.0.1', port: 0, controlPort: 0, token: TOKEN });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
  });
}, 180_000);

afterAll(async () => {
  for (const v of viewers) v.ws.terminate();
  await browser?.close();
  await server?.close();
  await releaseLock?.();
});

test('live bars per option while the prompt is open, the winner and the jump after it, then the reaction meter', async () => {
  await page.goto(`${server.controlUrl}/?token=${TOKEN}`);
  await page.waitForFunction(() => document.getElementById('conn-badge')?.textContent === 'Live', null, { timeout: 10_000 });
  expect(await page.textContent('#vote-question')).toBe('No prompt open.');
  for (let i = 0; i < 5; i += 1) viewers.push(await openWs(server.audienceUrl));
  server.show.engine.play();
  const vote = await waitFor(() => viewers[0].tracker.state?.vote, 5000, 'the prompt');
  await page.waitForFunction(() => document.getElementById('voices-state')?.textContent === 'open', null, { timeout: 5000 });
  for (let i = 0; i < 5; i += 1)
    viewers[i].ws.send(JSON.stringify({ type: 'vote', key: vote.key, option: i < 3 ? 'd' : 'c', device: deviceId(i) }));
  // The bars follow the tally while it is open.
  await page.waitForFunction(() => document.querySelector('[data-option="d"] .vote-count')?.textContent === '3', null, { timeout: 5000 });
  expect(await page.textContent('[data-option="c"] .vote-count')).toBe('2');
  const widths = await page.$$eval('.vote-fill', (els) => els.map((e) => e.style.width));
  expect(widths).toEqual(['67%', '100%', '0%']);
  expect(await page.textContent('#vote-total')).toBe('5 votes');
  // Closed: the winner and where the show jumps.
  await page.waitForFunction(() => document.getElementById('voices-state')?.textContent === 'closed', null, { timeout: 10_000 });
  expect(await page.textContent('#vote-total')).toMatch(/^5 votes · d wins · jumping at bar \d+$/);
  expect(await page.getAttribute('[data-option="d"]', 'class')).toContain('vote-winner');
  // Section D: the reaction window; taps move the meter.
  await waitFor(() => viewers[0].tracker.state?.react, 10_000, 'the reaction window');
  for (let round = 0; round < 8; round += 1) {
    for (const v of viewers) v.ws.send(JSON.stringify({ type: 'tap', n: 4 }));
    await new Promise((r) => setTimeout(r, 250));
  }
  await page.waitForFunction(() => Number(document.getElementById('reaction-level')?.textContent) > 0.3, null, { timeout: 5000 });
  expect(await page.getAttribute('#reaction-meter', 'aria-valuenow')).not.toBe('0');
  expect(pageErrors).toEqual([]);
}, 60_000);
