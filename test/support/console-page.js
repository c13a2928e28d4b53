// One start-up for the console's browser suites: a real show server on port 0 with a known token,
// the browser lock (one Chromium at a time, test/audience/support/exclusive.js), a page that
// collects its errors, and a stop in the right order (browser, server, lock).

import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startShowServer } from '../../local-server/src/server.js';
import { acquireBrowserLock } from '../audience/support/exclusive.js';
import { launchBrowser } from '../audience/support/browser.js';

/** Where the console suites write their screenshots (looked at by people, not compared). */
export const CONSOLE_SHOTS = fileURLToPath(new URL('../../artifacts/console/', import.meta.url));

/**
 * Start a show server and a Chromium page for the console.
 * @param {{ token: string, viewport: { width: number, height: number }, server: Record<string, unknown> }} options
 *   `server`: startShowServer's options besides host, ports and token (scorePath, log, …)
 * @returns {Promise<{ server: any, browser: any, page: any, pageErrors: string[], consoleUrl: string, close: () => Promise<void> }>}
 */
export async function openConsolePage({ token, viewport, server: serverOptions }) {
  const releaseLock = await acquireBrowserLock();
  /** @type {any} */
  let server;
  /** @type {any} */
  let browser;
  const close = async () => {
    await browser?.close();
    await server?.close();
    await releaseLock();
  };
  try {
    mkdirSync(CONSOLE_SHOTS, { recursive: true });
    server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token, ...serverOptions });
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport });
    /** @type {string[]} */
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
    });
    return { server, browser, page, pageErrors, consoleUrl: `${server.controlUrl}/?token=${token}`, close };
  } catch (err) {
    await close();
    throw err;
  }
}
