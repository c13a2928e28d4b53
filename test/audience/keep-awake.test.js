// Screen on at the venue (docs/explanation/browser-differences.md#screen-on-service-worker-plain-http): phones open
// http://192.168.x.x:8080/, which is not a secure context, so there is no Wake Lock API and no
// service worker. The page must keep the screen on with its muted, restarted video from the Join tap
// until the show is over, and a re-join must still cost little (HTTP caching of the immutable
// hashed assets). Real Chromium opens the page as http://tutti-venue.test:<port>/, a name mapped to
// 127.0.0.1 by a launch flag: a non-secure origin, while no traffic leaves loopback.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { launchBrowser, openPage, startShow, control, waitInPage, ARTIFACTS } from './support/browser.js';
import { acquireBrowserLock } from './support/exclusive.js';

const VENUE_HOST = 'tutti-venue.test';

let browser;
let show;
let release;
beforeAll(async () => {
  release = await acquireBrowserLock();
  [browser, show] = await Promise.all([launchBrowser({ args: [`--host-resolver-rules=MAP ${VENUE_HOST} 127.0.0.1`] }), startShow()]);
  await control(show, 'POST', '/api/transport', { action: 'play' });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await show?.close();
  await release?.();
});

const venueUrl = () => `http://${VENUE_HOST}:${new URL(show.audienceUrl).port}/`;
const videoState = (page) =>
  page.evaluate(() => {
    const v = /** @type {HTMLVideoElement} */ (document.getElementById('keep-awake'));
    return {
      paused: v.paused,
      time: v.currentTime,
      readyState: v.readyState,
      error: v.error?.message ?? null,
      ...window.__tutti.screenOn(),
    };
  });

test('on a non-secure origin the Join tap keeps the screen on with the restarted keep-awake video, until the show is over', async () => {
  const { context, page, problems } = await openPage(browser);
  try {
    await page.goto(venueUrl());
    await waitInPage(page, () => window.__tutti.connection().live && window.__tutti.displays().length >= 2);
    // What a phone on the venue Wi-Fi sees: no secure context, so neither API exists.
    expect(
      await page.evaluate(() => ({
        secure: window.isSecureContext,
        wakeLock: 'wakeLock' in navigator,
        sw: 'serviceWorker' in navigator,
        host: location.hostname,
      })),
    ).toEqual({
      secure: false,
      wakeLock: false,
      sw: false,
      host: VENUE_HOST,
    });
    expect((await videoState(page)).paused).toBe(true); // nothing before the tap

    await page.click('#join');
    await waitInPage(page, () => window.__tutti.screenOn().video);
    const a = await videoState(page);
    await page.waitForTimeout(1200);
    const b = await videoState(page);
    expect(a).toMatchObject({ paused: false, method: 'video', wakeLock: false, wanted: true, error: null });
    expect(b.paused).toBe(false);
    // Playing for real: the clock moves (modulo the 2 s loop).
    expect(b.time).not.toBe(a.time);
    // Chromium holds the screen only for a mostly visible video covering ≥ 20 % of the viewport.
    const box = await page.evaluate(() => {
      const r = document.getElementById('keep-awake').getBoundingClientRect();
      return { area: (r.width * r.height) / (innerWidth * innerHeight), top: r.top, left: r.left };
    });
    expect(box).toEqual({ area: 1, top: 0, left: 0 });
    // Past its first pass (2 s) it is still playing: restarted (not looped: WebKit's loop stalls),
    // and it carries a decoded audio track (Firefox takes no wake lock for a video without one).
    await waitInPage(page, () => window.__tutti.screenOn().restarts >= 2, undefined, 10_000);
    const c = await videoState(page);
    await page.waitForTimeout(400);
    const d = await videoState(page);
    expect(d).toMatchObject({ paused: false, error: null });
    expect(d.time).not.toBe(c.time);
    expect(
      await page.evaluate(() => ({
        loop: document.getElementById('keep-awake').loop,
        audioBytes: document.getElementById('keep-awake').webkitAudioDecodedByteCount > 0,
      })),
    ).toEqual({ loop: false, audioBytes: true });

    // Hidden: paused; visible again while the show plays: back on (headless pages are always
    // visible, so the test dispatches the change, as page.test.js does for sleep).
    await page.evaluate(() => {
      window.__visibility = 'hidden';
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => window.__visibility });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect((await videoState(page)).paused).toBe(true);
    await page.evaluate(() => {
      window.__visibility = 'visible';
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitInPage(page, () => !document.getElementById('keep-awake').paused);

    // The piece runs out (the engine stops after its last beat): the screen may sleep again.
    const bars = await page.evaluate(() => window.__tutti.state().score.bars);
    await control(show, 'POST', '/api/transport', { action: 'seek', bar: bars, beat: 1 });
    await waitInPage(page, () => window.__tutti.state().transport === 'stopped', undefined, 20_000);
    await waitInPage(page, () => document.getElementById('keep-awake').paused && !window.__tutti.screenOn().wanted);
    // And a restart keeps it on again.
    await control(show, 'POST', '/api/transport', { action: 'play' });
    await waitInPage(page, () => !document.getElementById('keep-awake').paused);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});

test('a re-join on a non-secure origin (no service worker) costs only the revalidated page: figure in artifacts/audience/rejoin-lan.json', async () => {
  const { context, page, problems } = await openPage(browser);
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    /** @type {Map<string, { url: string, status?: number, fromCache?: boolean, bytes?: number }>} */
    let requests = new Map();
    cdp.on('Network.responseReceived', (e) => {
      if (!requests.has(e.requestId)) return;
      Object.assign(requests.get(e.requestId), {
        status: e.response.status,
        fromCache: e.response.fromDiskCache || e.response.fromMemoryCache,
      });
    });
    cdp.on('Network.requestWillBeSent', (e) => requests.set(e.requestId, { url: e.request.url }));
    cdp.on('Network.loadingFinished', (e) => {
      const r = requests.get(e.requestId);
      if (r) r.bytes = e.encodedDataLength;
    });
    // The app itself: the page, its hashed JS/CSS and the keep-awake video (not the live streams).
    const appBytes = () =>
      [...requests.values()].filter((r) => /\/$|\/assets\//.test(new URL(r.url).pathname)).reduce((n, r) => n + (r.bytes ?? 0), 0);
    const visit = async () => {
      requests = new Map();
      await page.goto(venueUrl());
      await waitInPage(page, () => window.__tutti.connection().live && window.__tutti.displays().length >= 1);
      await page.click('#join');
      await waitInPage(page, () => window.__tutti.screenOn().video);
      const app = () => [...requests.values()].filter((r) => /\/$|\/assets\//.test(new URL(r.url).pathname));
      // The video may still be loading (even from the cache) when it starts playing: wait, bounded,
      // until every request of the app has finished, so its bytes are known.
      for (let i = 0; i < 100 && app().some((r) => r.bytes === undefined); i += 1) await new Promise((r) => setTimeout(r, 50));
      const list = app();
      return {
        bytes: appBytes(),
        requests: list.map((r) => `${new URL(r.url).pathname} ${r.status}${r.fromCache ? ' (cache)' : ''} ${r.bytes ?? '?'}`),
      };
    };
    const first = await visit();
    await page.goto('about:blank');
    const second = await visit();
    expect(await page.evaluate(() => 'serviceWorker' in navigator)).toBe(false);
    await writeFile(join(ARTIFACTS, 'rejoin-lan.json'), `${JSON.stringify({ first, second }, null, 2)}\n`);
    console.log(`non-secure origin: first visit ${first.bytes} bytes of app, re-join ${second.bytes} bytes`);
    expect(first.bytes).toBeGreaterThan(5 * 1024);
    // The hashed JS, CSS and video come from the HTTP cache (immutable): 0 bytes on the wire; only
    // the page is asked for again, revalidated by its ETag (a 304, headers only).
    expect(second.requests.filter((r) => r.includes('/assets/')).map((r) => r.split(' ').at(-1))).toEqual(['0', '0', '0']);
    expect(second.bytes).toBeLessThan(1024);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});
