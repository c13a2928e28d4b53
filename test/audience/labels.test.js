// Issue 12 §4: words a listener understands — before the show "waiting for the show to start",
// the tempo rounded as the console shows it, "Sound on" that does not look disabled, and a
// progress line that reaches the end on the piece's last beat.

import { launchBrowser, openPage, startShow, control, waitInPage } from './support/browser.js';
import { acquireBrowserLock } from './support/exclusive.js';

let browser;
let show;
let release;

beforeAll(async () => {
  release = await acquireBrowserLock();
  [browser, show] = await Promise.all([launchBrowser(), startShow({ autoplay: false })]);
}, 200_000); // other browser suites may hold the lock

afterAll(async () => {
  await browser?.close();
  await show?.close();
  await release?.();
});

test('waiting label, the tempo rounded as on the console, Sound on, full progress at the last beat', async () => {
  const { context, page, problems } = await openPage(browser);
  try {
    await page.goto(`${show.audienceUrl}/`);
    await waitInPage(page, () => window.__tutti.connection().live);
    await waitInPage(page, () => document.getElementById('transport').textContent === 'waiting for the show to start');

    await page.click('#join');
    await waitInPage(page, () => document.body.classList.contains('joined'));
    const join = await page.evaluate(() => {
      const style = getComputedStyle(document.getElementById('join'));
      return { opacity: style.opacity, color: style.color };
    });
    expect(join.opacity).toBe('1');
    expect(join.color).toBe('rgb(232, 232, 232)');

    // 106.66… bpm: the console shows 106.7 (one decimal), so does the phone.
    await control(show, 'POST', '/api/tempo', { bpm: 320 / 3 });
    await control(show, 'POST', '/api/transport', { action: 'play' });
    await waitInPage(page, () => document.getElementById('transport').textContent === '▶ playing · ♩ = 106.7');

    // The last beat of the piece (bar 48 of the demo, 4/4): the line is full.
    await control(show, 'POST', '/api/transport', { action: 'seek', bar: 48, beat: 4 });
    await waitInPage(
      page,
      () => document.getElementById('bar').textContent === '48' && document.getElementById('beat').textContent === '4',
    );
    expect(await page.evaluate(() => document.getElementById('progress-fill').style.transform)).toBe('scaleX(1)');
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
}, 60_000);
