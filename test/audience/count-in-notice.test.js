// Issue 40.18, on a phone in real Chromium against a real show server: a count-in the operator
// shares with the audience said "Starting in 6 …" (no unit) in the red box of the venue-offline
// notice, while the stage kept the pre-show view. It now says "Starting in 4 beats" … "1 beat" in
// calm colours, and the stage shows the start bar's view during the count-in.
// Screenshot: artifacts/audience/count-in-notice.png.

import { acquireBrowserLock } from './support/exclusive.js';
import { ARTIFACTS, SCORES, launchBrowser, openPage, startShow, control, waitInPage } from './support/browser.js';

let browser;
let releaseLock;
let show;

beforeAll(async () => {
  releaseLock = await acquireBrowserLock();
  [show, browser] = await Promise.all([startShow({ scorePath: `${SCORES}demo.score.json`, autoplay: false }), launchBrowser()]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await show?.close();
  await releaseLock?.();
});

test('the phone counts in with a unit, in calm colours, showing the start bar', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(`${show.audienceUrl}/`);
  await waitInPage(page, () => (window.__tutti.clock()?.total ?? 0) >= 5, undefined, 20_000);
  expect(await page.textContent('#text')).toBe('Gathering'); // the demo's view at bar 1

  await control(show, 'POST', '/api/tempo', { percent: 200 }); // 192 bpm: four clicks in 1.25 s
  // Bar 9's view is "Listen" / "Breathe in slowly…" (the cue at bar 5 merged with bar 9's).
  await control(show, 'POST', '/api/start', { from: { bar: 9 }, countInBars: 1, audience: true });
  /** Every (notice, stage) pair while the count-in runs, sampled every 20 ms by the page. */
  const seen = await page.evaluate(async () => {
    const out = [];
    const until = Date.now() + 3000;
    while (Date.now() < until) {
      const notice = window.__tutti.starting();
      const box = document.getElementById('starting');
      const style = box ? getComputedStyle(box) : null;
      const entry = {
        notice,
        stage: `${document.getElementById('text')?.textContent} / ${document.getElementById('instruction')?.textContent}`,
        border: style?.borderTopColor,
        bad: getComputedStyle(document.documentElement).getPropertyValue('--bad').trim(),
      };
      if (JSON.stringify(out.at(-1)) !== JSON.stringify(entry)) out.push(entry);
      await new Promise((r) => setTimeout(r, 20));
    }
    return out;
  });
  await page.screenshot({ path: `${ARTIFACTS}count-in-notice.png` });
  await control(show, 'POST', '/api/transport', { action: 'stop' });

  const counting = seen.filter((s) => s.notice);
  expect([...new Set(counting.map((s) => s.notice))]).toEqual([
    'Starting in 4 beats',
    'Starting in 3 beats',
    'Starting in 2 beats',
    'Starting in 1 beat',
  ]);
  // The start bar's view from the first click on, not the pre-show "Gathering".
  for (const s of counting) expect(s.stage).toBe('Listen / Breathe in slowly for four beats, out for four.');
  // Not the alarm red of the venue-offline notice: the calm "good" green border.
  const red = counting[0].bad.toLowerCase();
  expect(red).toBe('#ff5a5a');
  for (const s of counting) expect(s.border).toBe('rgb(61, 220, 132)');
  expect(seen.at(-1).notice).toBe('');
  expect(problems).toEqual([]);
}, 60_000);
