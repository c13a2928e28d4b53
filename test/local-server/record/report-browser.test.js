// The performance report in real Chromium (docs/how-to/record-and-replay.md#the-performance-record): a record of a
// simulated half-hour show (the real recorder on a simulated clock, bench/record/simulated-show.js)
// renders offline — timeline, tempo, audience, latency and sync charts — and asks the network
// for nothing. The screenshot is kept in artifacts/ (git-ignored) for a person to look at.
import { afterAll, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { simulateShow } from '../../../bench/record/simulated-show.js';
import { reportHtml } from '../../../local-server/src/report/report-html.js';
import { launchChromium } from '../../../tools/chromium.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'tutti-report-browser-'));
const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/', import.meta.url));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

test('the report of a half-hour show renders in Chromium with its charts and fetches nothing', async () => {
  const { dir } = await simulateShow(tmp, 0.5);
  const { html, story } = reportHtml(dir);
  expect(story.sections.length).toBeGreaterThan(5);
  const file = path.join(tmp, 'report.html');
  writeFileSync(file, html);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
    const requests = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) requests.push(r.url());
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const shot = path.join(ARTIFACTS, 'performance-report.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(20_000);
    expect(requests).toEqual([]);
    expect(await page.title()).toBe(`Tutti performance · ${story.scores[0]}`);
    // Timeline: transport spans, the sections as played (labelled), the operator's markers.
    expect(await page.locator('svg.timeline rect.section').count()).toBe(story.sections.length);
    expect(await page.locator('svg.timeline .marker-tempo').count()).toBe(story.actions.filter((a) => a.kind === 'tempo').length);
    expect(await page.locator('svg.timeline .marker-pause').count()).toBeGreaterThan(0);
    // Tempo, viewers, joins, latency and sync: five charts, each drawn at its size.
    expect(await page.locator('svg.chart').count()).toBe(5);
    const box = await page.locator('svg.timeline').boundingBox();
    expect(box?.width).toBeGreaterThan(1000);
    expect(await page.locator('text=Who did what').count()).toBe(1);
  } finally {
    await browser.close();
  }
}, 60_000);

test('the report carries a CSP: a script slipped into it does not run, its own styles still apply (issue 40 item 15)', async () => {
  const { dir } = await simulateShow(path.join(tmp, 'csp'), 0.05);
  const { html } = reportHtml(dir);
  expect(html).toContain('<meta http-equiv="Content-Security-Policy" content="default-src \'none\';');
  // As if a name in the record had escaped its escaping.
  const file = path.join(tmp, 'report-csp.html');
  writeFileSync(file, html.replace('</body>', '<script>window.__ran = true</script><img src="https://example.invalid/x.png"></body>'));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const refused = [];
    page.on('console', (m) => {
      if (/Content Security Policy/.test(m.text())) refused.push(m.text());
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    expect(await page.evaluate(() => /** @type {any} */ (globalThis).__ran ?? false)).toBe(false);
    // Chromium says what the policy refused: the script and the image.
    expect(refused.some((t) => /inline script/.test(t))).toBe(true);
    expect(refused.some((t) => /example\.invalid/.test(t))).toBe(true);
    expect(await page.locator('.tiles').evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).display)).toBe('grid');
  } finally {
    await browser.close();
  }
}, 60_000);
