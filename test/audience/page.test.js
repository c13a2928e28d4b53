// The audience page in real Chromium against the real show server: joining, beats and cues on
// screen at their time, audio cues, the load-test tiles, resuming after a freeze, and the weight
// of a first visit. Screenshots go to artifacts/audience/.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { launchBrowser, openPage, startShow, control, waitInPage, ARTIFACTS, SCORES } from './support/browser.js';
import { startJitterProxy } from './support/jitter-proxy.js';
import { acquireBrowserLock } from './support/exclusive.js';

let browser;
let show;
let release;
beforeAll(async () => {
  release = await acquireBrowserLock();
  [browser, show] = await Promise.all([launchBrowser(), startShow()]);
}, 180_000);
// Every test starts from a playing show, whatever the previous one left behind.
beforeEach(() => control(show, 'POST', '/api/transport', { action: 'play' }));
afterAll(async () => {
  await browser?.close();
  await show?.close();
  await release?.();
});

const stageText = (page) =>
  page.evaluate(() => ({
    text: document.getElementById('text').textContent,
    instruction: document.getElementById('instruction').textContent,
    bg: document.getElementById('stage').style.background,
  }));

test('joins, shows bar:beat advancing at each beat time and the cue content changing, without console errors', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(`${show.audienceUrl}/`);
  await waitInPage(page, () => window.__tutti.connection().live && window.__tutti.displays().length >= 4);

  const title = await page.textContent('#title');
  expect(title).toBe('Tutti — a short demo');
  expect(await page.textContent('#section')).toBe('A — Gathering');
  expect(await page.getAttribute('#conn', 'data-level')).toBe('good');
  // One plain word for the audience; the technical details only after a tap on the indicator.
  expect(await page.textContent('#conn-text')).toBe('live');
  expect(await page.isVisible('#conn-details')).toBe(false);
  await page.click('#conn');
  expect(await page.isVisible('#conn-details')).toBe(true);
  expect(await page.textContent('#conn-details')).toMatch(/^WS · \d+ ms · ±\d+(\.\d)? ms$/);
  expect(await page.getAttribute('#conn', 'aria-expanded')).toBe('true');

  // Beats advance one by one, each shown at its `at` on the synced clock (not on arrival).
  const displays = await page.evaluate(() => window.__tutti.displays());
  const live = displays.slice(1); // the first comes from the join snapshot
  for (let i = 1; i < live.length; i += 1) expect(live[i].index).toBe(live[i - 1].index + 1);
  for (const d of live) expect(Math.abs(d.server - d.at)).toBeLessThan(50); // generous: the precise figure is sync.test.js
  const last = displays.at(-1);
  const counter = await page.evaluate(() => `${document.getElementById('bar').textContent}:${document.getElementById('beat').textContent}`);
  const lastNow = await page.evaluate(() => window.__tutti.displays().at(-1));
  expect(counter).toBe(`${lastNow.bar}:${lastNow.beat}`);
  expect(lastNow.index).toBeGreaterThanOrEqual(last.index);
  await page.screenshot({ path: join(ARTIFACTS, 'playing.png') });

  // Cue content changes with the beat it belongs to: bar 9 sets text "Listen" and a new colour.
  await control(show, 'POST', '/api/transport', { action: 'seek', bar: 8, beat: 3 });
  await waitInPage(page, () => document.getElementById('text').textContent === 'Listen');
  const change = await page.evaluate(() => window.__tutti.viewChanges().find((v) => v.text === 'Listen'));
  const beatOfChange = await page.evaluate((at) => window.__tutti.displays().find((d) => d.at === at), change.at);
  expect(beatOfChange).toMatchObject({ bar: 9, beat: 1 });
  expect(Math.abs(change.local - beatOfChange.local)).toBeLessThan(5); // same moment as the beat
  expect((await stageText(page)).bg).toBe('rgb(46, 26, 71)');

  // Section C: a light background (dark text chosen for contrast).
  await control(show, 'POST', '/api/transport', { action: 'seek', bar: 32, beat: 4 });
  await waitInPage(page, () => document.getElementById('text').textContent === 'Lights');
  expect(await page.textContent('#section')).toBe('C — Lights');
  expect(await page.evaluate(() => document.getElementById('stage').style.color)).toBe('rgb(0, 0, 0)');
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(ARTIFACTS, 'cue-lights.png') });

  // Pause / stop reach the screen too.
  await control(show, 'POST', '/api/transport', { action: 'pause' });
  await waitInPage(page, () => document.getElementById('transport').textContent.includes('paused'));
  await control(show, 'POST', '/api/transport', { action: 'stop' });
  await waitInPage(
    page,
    () => document.getElementById('bar').textContent === '1' && document.getElementById('transport').textContent.includes('stopped'),
  );
  expect((await stageText(page)).text).toBe('Gathering'); // the view at bar 1 beat 1
  await control(show, 'POST', '/api/transport', { action: 'play' });

  expect(problems).toEqual([]);
  await context.close();
});

test('Join unlocks Web Audio; the bell cue is decoded and started ahead of time on the audio clock, at its beat', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(`${show.audienceUrl}/`);
  await waitInPage(page, () => window.__tutti.connection().live);
  await page.click('#join');
  await waitInPage(page, () => document.body.classList.contains('joined'));
  expect(await page.textContent('#join')).toBe('Sound on');

  // The bell sounds on bar 17 beat 1.
  await control(show, 'POST', '/api/transport', { action: 'seek', bar: 16, beat: 3 });
  const played = await waitInPage(page, () => window.__tutti.audio().find((p) => p.when !== undefined));
  expect(played.error).toBeUndefined();
  expect(played.skipped).toBeUndefined();
  expect(played.duration).toBeGreaterThan(0.05); // really decoded
  // Scheduled ahead (not fired on arrival), at the context time that maps to the cue's server time.
  const lead = played.when - played.ctxNow;
  expect(lead).toBeGreaterThan(0);
  const expectedLead = await page.evaluate((p) => (p.at - window.__tutti.toServer(performance.timeOrigin + p.perfNow)) / 1000, played);
  expect(Math.abs(lead - expectedLead)).toBeLessThan(0.06); // output latency is inside this
  const bellBeat = await waitInPage(page, (at) => window.__tutti.displays().find((d) => d.at === at), played.at);
  expect(bellBeat).toMatchObject({ bar: 17, beat: 1 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(ARTIFACTS, 'joined-bell.png') });
  expect(problems).toEqual([]);
  await context.close();
});

test('resumes after sleep (JS stalled, connection lost, page hidden then visible) without a reload', async () => {
  // Headless Chromium will not freeze a visible page (Page.setWebLifecycleState is a no-op here), so
  // sleep is reproduced piece by piece: the debugger stops the page's JS for 3 s, the proxy cuts the
  // connection meanwhile (the Wi-Fi went away), and on wake the page sees visibilitychange → visible
  // (dispatched by the test: headless pages are always visible).
  const proxy = await startJitterProxy({ targetPort: new URL(show.audienceUrl).port });
  const { context, page, problems } = await openPage(browser);
  try {
    await page.goto(`${proxy.url}/`);
    await waitInPage(page, () => window.__tutti.connection().live && window.__tutti.displays().length >= 2);
    await page.evaluate(() => {
      window.__loaded = performance.timeOrigin; // survives only if the page is not reloaded
      window.__visibility = 'visible';
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => window.__visibility });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Debugger.enable');
    await cdp.send('Debugger.pause');
    proxy.destroyAll();
    await new Promise((r) => setTimeout(r, 3000));
    const asleepAt = (await control(show, 'GET', '/api/status')).position.index;
    await cdp.send('Debugger.resume');
    await cdp.send('Debugger.disable');
    await page.evaluate(() => {
      window.__visibility = 'hidden';
      document.dispatchEvent(new Event('visibilitychange'));
      window.__visibility = 'visible';
      document.dispatchEvent(new Event('visibilitychange'));
    });
    // Caught up with the show, by itself, in the same document, back on the WebSocket.
    await waitInPage(page, (i) => window.__tutti.displays().at(-1).index > i && window.__tutti.connection().live, asleepAt);
    const log = await page.evaluate(() => window.__tutti.log().map((l) => l.what));
    expect(log).toContain('resume (visible)');
    expect(await page.evaluate(() => window.__loaded === performance.timeOrigin)).toBe(true);
    expect(await page.evaluate(() => window.__tutti.connection().transport)).toBe('ws');
    // The page reads the lean stream (docs/reference/audience-protocol.md#endpoints), which has its own seq space.
    const latest = show.show.leanStream.seq();
    await waitInPage(page, (seq) => window.__tutti.seq() >= seq, latest);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
    await proxy.close();
  }
});

test('the load-test score renders its tiles as a grid', async () => {
  const rose = await startShow({ scorePath: join(SCORES, 'union-rose-load.score.json') });
  try {
    const { context, page, problems } = await openPage(browser);
    await page.goto(`${rose.audienceUrl}/`);
    await waitInPage(page, () => window.__tutti.connection().live && !document.getElementById('tiles').hidden);
    const { shown, inState } = await page.evaluate(() => ({
      shown: document.querySelectorAll('#tiles span').length,
      inState: Object.keys(window.__tutti.state().view.data.tiles).length,
    }));
    expect(shown).toBe(Math.min(400, inState));
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, 'tiles.png') });
    expect(problems).toEqual([]);
    await context.close();
  } finally {
    await rose.close();
  }
});

test('first visit costs ≤ 150 KB transferred; a re-join through the service worker costs almost nothing', async () => {
  // Every byte between browser and server goes through this counting proxy (no delay).
  const proxy = await startJitterProxy({ targetPort: new URL(show.audienceUrl).port });
  const { context, page, problems } = await openPage(browser);
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const requests = new Map();
    cdp.on('Network.responseReceived', (e) =>
      requests.set(e.requestId, { url: e.response.url, type: e.type, fromSW: e.response.fromServiceWorker }),
    );
    let encoded = 0;
    cdp.on('Network.loadingFinished', (e) => {
      encoded += e.encodedDataLength;
      const r = requests.get(e.requestId);
      if (r) r.bytes = e.encodedDataLength;
    });

    await page.goto(`${proxy.url}/`);
    await waitInPage(page, () => window.__tutti.connection().live && window.__tutti.displays().length >= 2);
    await waitInPage(page, async () => Boolean((await navigator.serviceWorker.getRegistration())?.active), undefined, 10_000);
    await page.waitForTimeout(500); // the service worker's precache fetches
    const firstWire = proxy.stats.down + proxy.stats.up;
    const firstPage = encoded;
    const breakdown = [...requests.values()].map((r) => `${r.type} ${new URL(r.url).pathname} ${r.bytes ?? '?'}`);

    // Re-join: the service worker now controls the page and serves the shell from its cache.
    proxy.resetStats();
    encoded = 0;
    await page.reload();
    await waitInPage(page, () => window.__tutti.connection().live && window.__tutti.displays().length >= 1);
    const controlled = await page.evaluate(() => Boolean(navigator.serviceWorker.controller));
    const rejoinWire = proxy.stats.down + proxy.stats.up;

    const report = {
      firstVisit: { wireBytes: firstWire, pageEncodedBytes: firstPage, requests: breakdown },
      rejoin: { wireBytes: rejoinWire, controlledByServiceWorker: controlled },
    };
    await writeFile(join(ARTIFACTS, 'first-visit.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log(
      `first visit: ${firstWire} bytes on the wire (all requests + streams + service worker), ${firstPage} bytes encoded in the page's own requests; re-join: ${rejoinWire} bytes`,
    );

    expect(firstPage).toBeGreaterThan(0);
    expect(firstPage).toBeLessThanOrEqual(150 * 1024);
    expect(firstWire).toBeLessThanOrEqual(150 * 1024);
    expect(controlled).toBe(true);
    expect(rejoinWire).toBeLessThan(firstWire);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
    await proxy.close();
  }
});
