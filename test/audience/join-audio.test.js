// Nothing on a phone may wait on audio without a timeout (docs/explanation/browser-differences.md#what-differs)
// : where AudioContext.resume() never settles (Firefox ESR without an audio device,
// a phone whose audio focus is held by a call), the Join tap used to wait for ever: the button
// stayed disabled, the score's media were never preloaded and the current cues never scheduled.
// Real Chromium, with resume() replaced by one that never settles before the page's scripts run.
import { join } from 'node:path';
import { launchBrowser, openPage, startShow, control, waitInPage, ARTIFACTS } from './support/browser.js';
import { acquireBrowserLock } from './support/exclusive.js';

let browser;
let show;
let release;
beforeAll(async () => {
  release = await acquireBrowserLock();
  [browser, show] = await Promise.all([launchBrowser(), startShow()]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await show?.close();
  await release?.();
});

test('a resume() that never settles: the Join tap still joins, preloads the media and shows the cues', async () => {
  const { context, page, problems } = await openPage(browser);
  // As Firefox ESR does here: the context stays suspended and resume() never answers.
  await page.addInitScript(() => {
    window.__resumeCalls = 0;
    Object.defineProperty(BaseAudioContext.prototype, 'state', { configurable: true, get: () => 'suspended' });
    AudioContext.prototype.resume = function resume() {
      window.__resumeCalls += 1;
      return new Promise(() => {});
    };
  });
  const media = [];
  page.on('request', (req) => {
    if (req.url().includes('/media/')) media.push(new URL(req.url()).pathname);
  });
  try {
    await page.goto(`${show.audienceUrl}/`);
    await waitInPage(page, () => window.__tutti.connection().live);
    await page.click('#join');
    await waitInPage(page, () => document.body.classList.contains('joined'), undefined, 5000);
    expect(await page.evaluate(() => window.__resumeCalls)).toBeGreaterThanOrEqual(1);
    expect(await page.evaluate(() => document.getElementById('join').disabled)).toBe(true);
    // Preloaded: the score's bell was fetched after the tap.
    await waitInPage(page, () => performance.getEntriesByType('resource').some((r) => r.name.includes('/media/')), undefined, 5000);
    expect(media.some((p) => p.endsWith('bell.wav'))).toBe(true);
    // The cues are shown at their beats; the bell (bar 17) is not put on a context that is not
    // running (its clock stands still, so it would sound late whenever the context woke).
    await control(show, 'POST', '/api/transport', { action: 'seek', bar: 8, beat: 3 });
    await waitInPage(page, () => document.getElementById('text').textContent === 'Listen');
    await control(show, 'POST', '/api/transport', { action: 'seek', bar: 16, beat: 3 });
    const bell = await waitInPage(page, () => window.__tutti.audio()[0]);
    expect(bell).toMatchObject({ skipped: true, suspended: true });
    await page.screenshot({ path: join(ARTIFACTS, 'join-resume-never-settles.png') });
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});
