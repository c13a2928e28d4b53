// The page survives bad networks and server trouble by itself: WebSocket failing → SSE →
// polling (and back when WebSocket works again), a server restart (new epoch), and a lost
// WebSocket frame (seq gap). All failures are real: a proxy refuses requests and cuts
// connections, the server really restarts, a proxy really deletes one frame.

import { join } from 'node:path';
import { launchBrowser, openPage, startShow, control, waitInPage, ARTIFACTS } from './support/browser.js';
import { startJitterProxy } from './support/jitter-proxy.js';
import { acquireBrowserLock } from './support/exclusive.js';
import { startFrameDropProxy } from './support/ws-frame-drop-proxy.js';
import { LEAN_EPOCH_SUFFIX } from '#core/stream/lean-state.js';

let browser;
let release;
beforeAll(async () => {
  release = await acquireBrowserLock();
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await release?.();
});

/**
 * In sync = the page shows the beat the server announced, at its time: its latest displayed beat
 * is at most one behind the latest the server published (beats are published ~300 ms ahead), and
 * the beats it showed in the last stretch were shown at their `at` on the synced clock.
 */
async function expectInSync(page, show, since) {
  await page.waitForTimeout(1500);
  const status = await control(show, 'GET', '/api/status');
  const shown = await page.evaluate((t) => window.__tutti.displays().filter((d) => d.local >= t), since);
  expect(shown.length).toBeGreaterThan(0);
  expect(status.position.index - shown.at(-1).index).toBeLessThanOrEqual(1);
  for (const d of shown.slice(1)) expect(Math.abs(d.server - d.at)).toBeLessThan(50); // generous: the precise figure is sync.test.js
}

const pageNow = (page) => page.evaluate(() => performance.timeOrigin + performance.now());
const transportOf = (page) => page.evaluate(() => window.__tutti.connection());

test('WebSocket failing → SSE → polling, in sync all along; WebSocket is taken back once it works again', async () => {
  const show = await startShow();
  const proxy = await startJitterProxy({ targetPort: new URL(show.audienceUrl).port });
  const { context, page, problems } = await openPage(browser);
  try {
    // ?probe=3000: try a better transport 3 s after giving one up (45 s by default).
    await page.goto(`${proxy.url}/?probe=3000`);
    await waitInPage(page, () => window.__tutti.connection().live);
    expect((await transportOf(page)).transport).toBe('ws');

    // The venue network starts breaking WebSockets: refused on connect, open ones cut.
    proxy.block(['/ws']);
    proxy.destroyAll();
    await waitInPage(page, () => window.__tutti.connection().transport === 'sse' && window.__tutti.connection().live);
    await expectInSync(page, show, await pageNow(page));

    // Then streaming responses too: only plain requests get through.
    proxy.block(['/ws', '/sse']);
    proxy.destroyAll();
    await waitInPage(page, () => window.__tutti.connection().transport === 'poll' && window.__tutti.connection().live);
    await expectInSync(page, show, await pageNow(page));
    await page.screenshot({ path: join(ARTIFACTS, 'fallback-polling.png') });
    const log = await page.evaluate(() => window.__tutti.log().map((l) => l.what));
    expect(log).toContain('giving up on ws for sse');
    expect(log).toContain('giving up on sse for poll');

    // The network heals: the page probes and climbs back to WebSocket without dropping the show.
    proxy.block([]);
    await waitInPage(page, () => window.__tutti.connection().transport === 'ws' && window.__tutti.connection().live, undefined, 25_000);
    await expectInSync(page, show, await pageNow(page));
    expect(problems.filter((p) => !/WebSocket|EventSource|Failed to load resource|ERR_/.test(p))).toEqual([]);
  } finally {
    await context.close();
    await proxy.close();
    await show.close();
  }
});

test('WebSocket and SSE blocked from the very first visit → polling, showing the show in sync', async () => {
  const show = await startShow();
  const proxy = await startJitterProxy({ targetPort: new URL(show.audienceUrl).port });
  proxy.block(['/ws', '/sse']);
  const { context, page } = await openPage(browser);
  try {
    const t0 = Date.now();
    await page.goto(`${proxy.url}/`);
    await waitInPage(page, () => window.__tutti.connection().transport === 'poll' && window.__tutti.connection().live);
    const fallbackMs = Date.now() - t0;
    await expectInSync(page, show, await pageNow(page));
    console.log(`blocked WebSocket and SSE: on polling ${fallbackMs} ms after navigation`);
  } finally {
    await context.close();
    await proxy.close();
    await show.close();
  }
});

test('a server restart (new epoch) is followed by itself: reconnect, resync, back on WebSocket', async () => {
  const first = await startShow();
  const port = Number(new URL(first.audienceUrl).port);
  const { context, page } = await openPage(browser);
  let second;
  try {
    await page.goto(`${first.audienceUrl}/`);
    await waitInPage(page, () => window.__tutti.connection().live && window.__tutti.displays().length >= 2);
    const oldEpoch = await page.evaluate(() => window.__tutti.epoch());
    // The page reads the lean stream (docs/reference/audience-protocol.md#endpoints): the full epoch with a suffix.
    expect(oldEpoch).toBe(`${(await control(first, 'GET', '/api/status')).epoch}${LEAN_EPOCH_SUFFIX}`);

    await first.close();
    await new Promise((r) => setTimeout(r, 800)); // down for a moment
    second = await startShow({ port });
    const newEpoch = `${(await control(second, 'GET', '/api/status')).epoch}${LEAN_EPOCH_SUFFIX}`;
    expect(newEpoch).not.toBe(oldEpoch);

    await waitInPage(page, (e) => window.__tutti.epoch() === e && window.__tutti.connection().live, newEpoch);
    // The restart did not count against WebSocket: the server was simply away.
    expect((await transportOf(page)).transport).toBe('ws');
    const since = await pageNow(page);
    await waitInPage(page, ([e, t]) => window.__tutti.displays().filter((d) => d.epoch === e && d.local >= t).length >= 2, [
      newEpoch,
      since,
    ]);
    await expectInSync(page, second, since);
  } finally {
    await context.close();
    await second?.close();
  }
});

test('a lost WebSocket frame (seq gap) makes the page resync by itself', async () => {
  const show = await startShow();
  // Lose the third delta this connection carries: a real gap on a real socket.
  let deltas = 0;
  const proxy = await startFrameDropProxy({
    targetPort: new URL(show.audienceUrl).port,
    shouldDrop: (msg) => msg.type === 'delta' && ++deltas === 3,
  });
  const { context, page } = await openPage(browser);
  try {
    // The full stream (`?stream=full`): its frames are plain text the proxy can parse and drop whole
    // (lean frames are compressed), and it has a delta per beat to lose.
    await page.goto(`${proxy.url}/?stream=full`);
    await waitInPage(page, () => window.__tutti.log().some((l) => l.what === 'resync (gap) via ws'));
    expect(proxy.dropped).toHaveLength(1);
    const lost = proxy.dropped[0].seq;
    // The snapshot it asked for brings it past the hole, and deltas chain again after it.
    await waitInPage(page, (s) => window.__tutti.seq() > s + 1 && window.__tutti.connection().live, lost);
    const counts = await page.evaluate(() => window.__tutti.counts());
    expect(counts.resyncs).toBe(1);
    expect((await transportOf(page)).transport).toBe('ws');
    const state = await page.evaluate(() => window.__tutti.state());
    const status = await control(show, 'GET', '/api/status');
    expect(status.position.index - state.position.index).toBeLessThanOrEqual(1);
    await expectInSync(page, show, await pageNow(page));
  } finally {
    await context.close();
    await proxy.close();
    await show.close();
  }
});
