// Render a report in Chromium (playwright-core; the system browser or the npm one, tools/chromium.js) and save a PNG: how the
// report is checked by eye, and how the tests check that it renders.
//
//   node artillery/lib/report/screenshot.js <report.html> <out.png> [width]

import { resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * @param {string} htmlFile
 * @param {string} pngFile
 * @param {{ width?: number, fullPage?: boolean }} [options]
 * @returns {Promise<{ title: string, requests: string[], comparisonRows: number, svgCount: number }>} what the page showed
 */
export async function screenshotReport(htmlFile, pngFile, { width = 1200, fullPage = true } = {}) {
  const { launchChromium } = await import('../../../tools/chromium.js');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
    // A self-contained report asks for nothing but itself.
    const requests = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) requests.push(r.url());
    });
    await page.goto(pathToFileURL(resolve(htmlFile)).href, { waitUntil: 'load' });
    mkdirSync(dirname(resolve(pngFile)), { recursive: true });
    await page.screenshot({ path: pngFile, fullPage });
    const facts = {
      title: await page.title(),
      comparisonRows: await page.locator('table.comparison tbody tr').count(),
      svgCount: await page.locator('svg.chart').count(),
    };
    return { ...facts, requests };
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [html, png, width] = process.argv.slice(2);
  if (!html || !png) {
    process.stderr.write('Usage: node artillery/lib/report/screenshot.js <report.html> <out.png> [width]\n');
    process.exit(2);
  }
  screenshotReport(html, png, { width: Number(width) || 1200 }).then((facts) => process.stdout.write(`${JSON.stringify(facts)}\n`));
}
