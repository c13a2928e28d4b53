// The edge's page suites in real Chromium: the shared browser lock (one browser suite at a time,
// test/audience/support/exclusive.js), local workerd and a browser started together, stopped in order.
import { mkdirSync } from 'node:fs';
import { acquireBrowserLock } from '../audience/support/exclusive.js';
import { ARTIFACTS, launchBrowser } from '../audience/support/browser.js';
import { startEdge } from './helpers.js';

/**
 * @param {Parameters<typeof startEdge>[0]} [edgeOptions]
 * @returns {Promise<{ edge: any, browser: any, stop: () => Promise<void> }>}
 */
export async function startEdgeAndBrowser(edgeOptions) {
  const releaseLock = await acquireBrowserLock();
  mkdirSync(ARTIFACTS, { recursive: true });
  const [edge, browser] = await Promise.all([startEdge(edgeOptions), launchBrowser()]);
  return {
    edge,
    browser,
    async stop() {
      await browser?.close();
      await edge?.stop();
      await releaseLock?.();
    },
  };
}
