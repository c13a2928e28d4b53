// The console's musicians' card (docs/how-to/part-pages.md#part-pages) in real Chromium against a real show
// server: a second QR code and URL holding the part-page key (not the audience's URL), and the
// part pages open now — a real part page opened on a tablet-sized page and picking a part shows
// up with its part, clock-sync quality and last seen, and the parts without a tablet are named.
// Screenshot: artifacts/console/console-parts.png.

import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startShowServer } from '../../local-server/src/server.js';
import { acquireBrowserLock } from '../audience/support/exclusive.js';
import { launchBrowser } from '../audience/support/browser.js';

const TOKEN = 'console-parts-test-token';
const SHOTS = fileURLToPath(new URL('../../artifacts/console/', import.meta.url));

let server;
let browser;
let releaseLock;

beforeAll(async () => {
  releaseLock = await acquireBrowserLock();
  mkdirSync(SHOTS, { recursive: true });
  server = await startShowServer({
    scorePath: fileURLToPath(new URL('../../scores/tidal-lines.score.json', import.meta.url)),
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    token: TOKEN,
  });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await releaseLock?.();
});

test("the musicians' QR and URL carry the part key; a connected part page is listed with its part, sync and last seen", async () => {
  const consolePage = await browser.newPage({ viewport: { width: 1440, height: 1100 } });
  const errors = [];
  consolePage.on('pageerror', (e) => errors.push(e.message));
  consolePage.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await consolePage.goto(`${server.controlUrl}/?token=${TOKEN}`);
  const partUrl = `${server.audienceUrl}/part/${server.partKey}/`;
  await consolePage.waitForFunction((url) => document.getElementById('parts-url')?.textContent === url, partUrl, { timeout: 15_000 });
  expect(await consolePage.getAttribute('#parts-qr', 'src')).toMatch(/^data:image\/svg\+xml/);
  // The audience's join URL and code are the plain audience address, without the key.
  await consolePage.waitForFunction(() => (document.getElementById('audience-url')?.getAttribute('href') ?? '#') !== '#');
  expect(await consolePage.getAttribute('#audience-url', 'href')).not.toContain(server.partKey);
  // No tablet yet: all four parts are missing.
  await consolePage.waitForFunction(() => document.querySelectorAll('#parts-list .part-row.missing').length === 4);
  expect(await consolePage.textContent('#parts-state')).toBe('0 of 4 parts ready');

  const tablet = await browser.newPage({ viewport: { width: 1180, height: 820 } });
  await tablet.goto(`${partUrl}#vc`);
  await tablet.waitForFunction(() => window.__part?.part() === 'vc' && (window.__part.clock()?.total ?? 0) >= 20, undefined, {
    timeout: 20_000,
  });
  await consolePage.waitForFunction(
    () => {
      const row = document.querySelector('#parts-list .part-row[data-part="vc"]:not(.missing)');
      return row && /±/.test(row.textContent);
    },
    undefined,
    { timeout: 15_000 },
  );
  const row = await consolePage.textContent('#parts-list .part-row[data-part="vc"]:not(.missing)');
  expect(row).toMatch(/^Cello±\d+(\.\d)? ms · round trip \d+(\.\d)? ms · WS127\.0\.0\.1 · (just now|\d+ s ago)$/);
  expect(await consolePage.textContent('#parts-state')).toBe('1 of 4 parts ready');
  expect(await consolePage.$$eval('#parts-list .part-row.missing', (rows) => rows.map((r) => r.dataset.part))).toEqual([
    'vln',
    'perc',
    'elec',
  ]);
  await consolePage.evaluate(() => window.scrollTo(0, 0)); // the sticky top bar belongs at the top of a full-page shot
  await consolePage.screenshot({ path: `${SHOTS}console-parts.png`, fullPage: true });
  expect(errors).toEqual([]);
  await tablet.close();
  await consolePage.close();
}, 90_000);

test('"New key" replaces the part key: the console shows the new link, the old one is refused at once, an open tablet is cut off', async () => {
  const consolePage = await browser.newPage({ viewport: { width: 1440, height: 1100 } });
  const errors = [];
  consolePage.on('pageerror', (e) => errors.push(e.message));
  await consolePage.goto(`${server.controlUrl}/?token=${TOKEN}`);
  const oldKey = server.partKey;
  const oldUrl = `${server.audienceUrl}/part/${oldKey}/`;
  await consolePage.waitForFunction((url) => document.getElementById('parts-url')?.textContent === url, oldUrl, { timeout: 15_000 });
  const oldQr = await consolePage.getAttribute('#parts-qr', 'src');
  const tablet = await browser.newPage({ viewport: { width: 1180, height: 820 } });
  await tablet.goto(`${oldUrl}#vc`);
  await tablet.waitForFunction(() => window.__part?.part() === 'vc' && (window.__part.clock()?.total ?? 0) >= 5, undefined, {
    timeout: 20_000,
  });

  // One click arms the button, the second replaces the key.
  await consolePage.click('#rotate-parts-key');
  expect(await consolePage.textContent('#rotate-parts-key')).toBe('Replace? Click again');
  expect(server.partKey).toBe(oldKey);
  await consolePage.click('#rotate-parts-key');
  await consolePage.waitForFunction((old) => !document.getElementById('parts-url')?.textContent.includes(old), oldKey, { timeout: 10_000 });
  const newKey = server.partKey;
  expect(newKey).not.toBe(oldKey);
  expect(newKey).toMatch(/^[A-Za-z0-9_-]{10}$/);
  expect(await consolePage.textContent('#parts-url')).toBe(`${server.audienceUrl}/part/${newKey}/`);
  expect(await consolePage.getAttribute('#parts-qr', 'src')).not.toBe(oldQr);

  expect((await fetch(`${oldUrl}parts.json`)).status).toBe(403);
  expect((await fetch(`${server.audienceUrl}/part/${newKey}/parts.json`)).status).toBe(200);
  // The tablet's stream was closed and its key is refused: the page says so.
  await tablet.waitForFunction(() => window.__part.refused(), undefined, { timeout: 15_000 });
  expect(errors).toEqual([]);
  await tablet.close();
  await consolePage.close();
}, 60_000);
