// A rehearsal on the musicians' part page (docs/how-to/rehearse.md#rehearsing) in real Chromium against a real
// show server: "from B, two bars of count-in, loop it twice, at 200 %". The page shows the count-in
// ("2 …", "1 …") click by click at the server's click times, its beat dots counting the count-in's
// beats, and clicks it; then the loop's beats, each once, in the order the server plays them
// (240 bpm: a beat is shorter than the 300 ms lookahead, so the next pass's segment arrives before
// this pass's last beat sounds); "loop: pass 2 of 2 · 200 %"; and its countdown to the next cue is
// right at every beat across the loop point — counted in beats as they are played, so the next cue
// may be in the next pass.
// Screenshots: artifacts/audience/part-rehearsal-*.png.

import { acquireBrowserLock } from './support/exclusive.js';
import { ARTIFACTS, launchBrowser, openPage, startShow, control, waitInPage } from './support/browser.js';
import { writeRehearsalScore } from '../support/rehearsal-score.js';

const TABLET = { viewport: { width: 1180, height: 820 }, deviceScaleFactor: 1, hasTouch: true, isMobile: false };
/**
 * A page draws a beat when its timer fires on the synced clock; a loaded 2-core machine fires it
 * late now and then: every beat and click must be on screen within its own beat (250 ms at
 * 240 bpm), the median within MEDIAN_MS. On time is the sync and part-page tests' business.
 */
const LATE_MS = 250;
const MEDIAN_MS = 30;
const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];

let browser;
let releaseLock;
let show;

beforeAll(async () => {
  releaseLock = await acquireBrowserLock();
  [show, browser] = await Promise.all([startShow({ scorePath: writeRehearsalScore(), autoplay: false }), launchBrowser()]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await show?.close();
  await releaseLock?.();
});

test('count-in, two passes of a loop and the countdown across the loop point, on the part page', async () => {
  const { page, problems } = await openPage(browser, TABLET);
  await page.goto(`${show.audienceUrl}/part/${show.partKey}/#vln`);
  await waitInPage(page, () => window.__part.part() === 'vln' && (window.__part.clock()?.total ?? 0) >= 20, undefined, 20_000);
  await page.click('#click'); // count-ins: the rehearsal's count-in clicks in every mode but off

  /** What the server plays: the count-in's clicks and every beat, with their server times. */
  const played = [];
  const clicks = [];
  const onBeat = (b) => played.push(b);
  const onClick = (c) => 'n' in c && clicks.push(c);
  show.show.events.on('beat', onBeat);
  show.show.events.on('countin', onClick);
  try {
    await control(show, 'POST', '/api/tempo', { percent: 200 });
    const started = await control(show, 'POST', '/api/loop', { from: { section: 'B' }, passes: 2, countInBars: 2 });
    expect(started.countIn).toMatchObject({ beats: 8, perBar: 4, beatMs: 250 });
    await waitInPage(page, () => window.__part.countIns().length > 0);
    await page.screenshot({ path: `${ARTIFACTS}part-rehearsal-countin.png` });
    await waitInPage(page, () => document.getElementById('rehearsal')?.textContent === 'loop: pass 2 of 2 · 200 %', undefined, 10_000);
    await page.screenshot({ path: `${ARTIFACTS}part-rehearsal-pass2.png` });
    await waitInPage(page, () => window.__part.displays().some((d) => d.bar === 6 && d.beat === 1), undefined, 10_000);
  } finally {
    show.show.events.off('beat', onBeat);
    show.show.events.off('countin', onClick);
  }
  await control(show, 'POST', '/api/transport', { action: 'stop' });
  const countIns = await page.evaluate(() => window.__part.countIns());
  const displays = (await page.evaluate(() => window.__part.displays())).filter((d) => d.server >= clicks[0].at);
  const scheduled = await page.evaluate(() => window.__part.clicks());

  // The count-in: every click shown, bars left "2 …" then "1 …", each at its server time.
  expect(clicks.map((c) => c.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(countIns.map((c) => [c.n, c.text])).toEqual(clicks.map((c) => [c.n, c.n <= 4 ? '2 …' : '1 …']));
  // The beat dots count the count-in's beats in its bar (not bar 3 beat 1, where the show stands).
  expect(countIns.map((c) => [c.dots, c.counting])).toEqual(clicks.map((c) => [`${((c.n - 1) % 4) + 1}/4`, true]));
  expect(await page.evaluate(() => document.getElementById('beats')?.classList.contains('counting'))).toBe(false);
  const clickLate = countIns.map((c, k) => c.server - clicks[k].at);
  for (const late of clickLate) expect(late).toBeGreaterThanOrEqual(-1);
  for (const late of clickLate) expect(late).toBeLessThan(LATE_MS);
  expect(median(clickLate)).toBeLessThan(MEDIAN_MS);
  // …and clicked on the audio clock at those times, the first of each bar accented.
  const countInClicks = scheduled.filter((c) => c.index < 0 && !c.cancelled);
  expect(countInClicks.map((c) => c.at)).toEqual(clicks.map((c) => c.at));
  expect(countInClicks.map((c) => c.countIn)).toEqual([1, 2, 3, 4, 1, 2, 3, 4]);

  // The beats: the ones the server played, each shown once, in order, at its time: B twice, then on.
  const upTo = played.findIndex((b) => b.bar === 6 && b.beat === 1);
  const sequence = played.slice(0, upTo + 1);
  expect(sequence.map((b) => b.index)).toEqual([8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  expect(displays.slice(0, sequence.length).map((d) => [d.index, d.at])).toEqual(sequence.map((b) => [b.index, b.at]));
  const beatLate = displays.slice(0, sequence.length).map((d) => d.server - d.at);
  for (const late of beatLate) expect(late).toBeLessThan(LATE_MS);
  expect(median(beatLate)).toBeLessThan(MEDIAN_MS);
  expect(displays.slice(0, 16).map((d) => d.pass)).toEqual([...Array(8).fill(1), ...Array(8).fill(2)]);

  // The countdown at every beat: the beats, as played, to the next beat that carries a cue of the violin.
  const cueBeats = new Set([10, 20]);
  sequence.forEach((b, k) => {
    const j = sequence.findIndex((x, i) => i >= k && cueBeats.has(x.index));
    expect([k, b.index, displays[k].next, displays[k].inBeats]).toEqual([k, b.index, sequence[j].index, j - k]);
  });
  // On screen: bar 4 beat 4 of pass 1 → "Enter" 3 beats into pass 2; of pass 2 (the last) → "Later" in bar 6, 5 beats on.
  expect([displays[7].countdown, displays[15].countdown]).toEqual(['3', '5']);
  expect(problems).toEqual([]);
});

test('the audience page shows "Starting in …" only for a count-in the operator shares with it', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(`${show.audienceUrl}/`);
  await waitInPage(page, () => (window.__tutti.clock()?.total ?? 0) >= 10, undefined, 20_000);
  /** Every text the notice shows during a count-in (sampled every 50 ms by the page). */
  const watchNotice = () =>
    page.evaluate(async () => {
      const seen = [];
      const until = Date.now() + 2500;
      while (Date.now() < until) {
        const text = window.__tutti.starting();
        if (seen.at(-1) !== text) seen.push(text);
        await new Promise((r) => setTimeout(r, 50));
      }
      return seen;
    });
  await control(show, 'POST', '/api/tempo', { percent: 200 });
  await control(show, 'POST', '/api/start', { from: { section: 'C' }, countInBars: 1 });
  expect((await watchNotice()).filter(Boolean)).toEqual([]);
  await control(show, 'POST', '/api/transport', { action: 'stop' });
  await control(show, 'POST', '/api/start', { from: { section: 'C' }, countInBars: 1, audience: true });
  const seen = await watchNotice();
  expect(seen.filter(Boolean)).toEqual(['Starting in 4 beats', 'Starting in 3 beats', 'Starting in 2 beats', 'Starting in 1 beat']);
  expect(seen.at(-1)).toBe('');
  await control(show, 'POST', '/api/transport', { action: 'stop' });
  expect(problems).toEqual([]);
});
