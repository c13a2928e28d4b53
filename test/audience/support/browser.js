// Real Chromium (the system one, or the npm registry's: tools/chromium.js) driven by
// playwright-core, plus the show-server helpers the audience browser tests share. One browser per
// test file.

import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../../../tools/chromium.js';

export const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/audience/', import.meta.url));
export const SCORES = fileURLToPath(new URL('../../../scores/', import.meta.url));
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** @param {{ args?: string[] }} [options] extra Chromium flags (e.g. --host-resolver-rules for a non-secure origin) */
export async function launchBrowser(options = {}) {
  await mkdir(ARTIFACTS, { recursive: true });
  return launchChromium(options);
}

/**
 * A page that records console errors and uncaught exceptions, so a test can assert there were none.
 * @param {import('playwright-core').Browser} browser
 */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext({ ...PHONE, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return { context, page, problems };
}

export { startShow } from '../../support/show.js';

/** Call the control API (docs/reference/control-api.md#endpoints). */
export async function control(show, method, path, body) {
  const res = await fetch(`${show.controlUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${show.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * Poll `fn` in the page until it returns a truthy value (bounded by `timeout`).
 * @param {import('playwright-core').Page} page
 */
export async function waitInPage(page, fn, arg, timeout = 15_000) {
  const handle = await page.waitForFunction(fn, arg, { timeout, polling: 50 });
  return handle.jsonValue();
}

/** Quantile of a list of numbers (nearest rank). */
export function quantile(values, q) {
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.max(0, Math.ceil(q * v.length) - 1))];
}

/**
 * Ground truth for one page's offset (server clock − page clock), measured outside any jittery
 * path: GET /time straight to the server, and a CDP round trip to the page, both against this
 * process's clock; the pair with the fastest round trips wins (error ≤ half of both round trips).
 * @param {import('playwright-core').Page} page
 * @param {{ audienceUrl: string }} show
 * @param {number} [rounds]
 * @returns {Promise<{ offset: number, error: number }>}
 */
export async function trueOffset(page, show, rounds = 20) {
  let best = null;
  for (let i = 0; i < rounds; i += 1) {
    const a = performance.now();
    const res = await fetch(`${show.audienceUrl}/time`);
    const b = performance.now();
    const { s } = await res.json();
    const c = performance.now();
    const p = await page.evaluate(() => performance.timeOrigin + performance.now());
    const d = performance.now();
    const error = (b - a) / 2 + (d - c) / 2;
    const offset = s - (a + b) / 2 - (p - (c + d) / 2);
    if (!best || error < best.error) best = { offset, error };
  }
  return best;
}
