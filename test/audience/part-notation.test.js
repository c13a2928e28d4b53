// The engraved part on the musicians' part page (../shared/SPEC.md §10, docs/how-to/part-pages-notation.md)
// in real Chromium at a tablet viewport against a real show server: the page fetches the bar map
// and SVG pages for its screen's layout (never Verovio), lets the player page freely while stopped
// and comes back to the cursor on play, moves the cursor on every beat at the beat's server time
// (within the beat display's 10 ms), has the half with the coming system on screen before that
// system's first bar through a D.C. back to page 1, says each page turn once (aria-live) and never
// a beat, and passes axe. Screenshots: artifacts/audience/part-notation-*.png.

import { acquireBrowserLock } from './support/exclusive.js';
import { ARTIFACTS, launchBrowser, openPage, startShow, control, waitInPage, quantile, trueOffset } from './support/browser.js';
import { audit, describeViolations } from './support/axe.js';
import { routeNotation } from './support/notation-routes.js';
import { writeTempScore } from './support/temp-score.js';
import { pageHalves } from '#core/client/page-turns.js';
import { importNotationFile } from '../../local-server/src/import/import-file.js';

const CORPUS = new URL('../../../shared/corpus/musicxml/', import.meta.url);
const MOZART = new URL('Mozart_String_Quartet_in_G_K._387_1st_Mvmnt_excerpt.musicxml', CORPUS).pathname;
const TOLERANCE_MS = 10;
const TABLET = { viewport: { width: 1180, height: 820 }, deviceScaleFactor: 1, hasTouch: true, isMobile: false };
/** A short page, so the 13 printed bars take two pages (four halves). */
const SHORT_PAGES = { 'tablet-landscape': { pageWidth: 2300, pageHeight: 700, scale: 45 } };

/**
 * The Mozart excerpt (pickup + printed bars 1–12), then "D.C." back to printed 1–6: 19 performance
 * bars, at 200 bpm, with a cue for the first violin.
 */
async function mozartWithDaCapo() {
  const { score } = await importNotationFile(MOZART);
  return {
    ...score,
    id: 'mozart-dc',
    title: 'K. 387 (excerpt, with a D.C.)',
    bars: 19,
    printedBars: [
      { bar: 1, number: 0 },
      { bar: 14, number: 1, pass: 2 },
    ],
    tempo: [{ at: { bar: 1 }, bpm: 200 }],
    cues: [{ at: { bar: 14 }, osc: { part: 'violin', address: '/cue', args: ['da capo', 'p'] } }],
  };
}

let browser;
let releaseLock;
let written;
let show;
let score;

beforeAll(async () => {
  releaseLock = await acquireBrowserLock();
  score = await mozartWithDaCapo();
  written = await writeTempScore(score);
  [show, browser] = await Promise.all([startShow({ scorePath: written.file, autoplay: false }), launchBrowser()]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await show?.close();
  await written?.remove();
  await releaseLock?.();
});

const inspect = (page) => page.evaluate(() => window.__part.notation());
const slotsShown = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('#sheet .slot')].filter((s) => !s.hidden).map((s) => `${s.dataset.page}${s.dataset.half}`),
  );

test('pages while stopped, back to the cursor on play; cursor on time; the coming half on screen first; turns spoken once; axe clean', async () => {
  const { context, page, problems } = await openPage(browser, TABLET);
  const routes = await routeNotation(context, { file: MOZART, score, layouts: SHORT_PAGES });
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${show.audienceUrl}/part/${show.partKey}/#violin`);
  await waitInPage(page, () => window.__part.part() === 'violin' && window.__part.notation().loaded);
  // Stopped at the top: the cursor on bar 1 beat 1, page 1 on screen; the tablet asked for its layout only.
  await waitInPage(page, () => document.getElementById('cursor').dataset.cursorBar === '1' && !document.getElementById('cursor').hidden);
  await waitInPage(page, () => [...document.querySelectorAll('#sheet img')].every((i) => i.complete && i.naturalWidth > 0));
  expect(routes.asked[0]).toBe('violin.json?tablet-landscape');
  expect(requests.some((u) => /verovio|\.wasm/i.test(u))).toBe(false);
  await page.screenshot({ path: `${ARTIFACTS}part-notation-stopped.png` });
  expect(describeViolations(await audit(page))).toEqual([]);

  // Free paging while stopped: a key, the button, a swipe; the cursor's own half is off screen on page 2.
  await page.keyboard.press('ArrowRight');
  expect((await inspect(page)).paging).toBe(2);
  expect(await slotsShown(page)).toEqual(['2top']);
  expect(await page.evaluate(() => document.getElementById('cursor').hidden)).toBe(true);
  await page.click('#page-prev');
  expect((await inspect(page)).paging).toBe(1);
  const box = await page.locator('#sheet').boundingBox();
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  expect((await inspect(page)).paging).toBe(2);

  // Every addition to the polite live region, with the page's clock.
  await page.evaluate(() => {
    window.__said = [];
    new MutationObserver((list) => {
      for (const m of list) for (const n of m.addedNodes) window.__said.push(n.textContent);
    }).observe(document.getElementById('announce'), { childList: true });
  });
  await waitInPage(page, () => (window.__part.clock()?.total ?? 0) >= 40, undefined, 20_000);
  const beats = new Map();
  const onBeat = (b) => beats.set(b.index, b);
  show.show.events.on('beat', onBeat);
  try {
    await control(show, 'POST', '/api/transport', { action: 'play' });
    // Play: the free paging ends, the screen comes back to the cursor.
    await waitInPage(page, () => window.__part.notation().paging === null && window.__part.notation().moves.some((m) => m.bar === 2));
    await waitInPage(page, () => window.__part.notation().moves.some((m) => m.bar === 12));
    await page.screenshot({ path: `${ARTIFACTS}part-notation-turned.png` });
    await waitInPage(page, () => window.__part.state()?.transport === 'stopped', undefined, 60_000);
  } finally {
    show.show.events.off('beat', onBeat);
  }
  const { offset } = await trueOffset(page, show, 15);
  const { moves, turns } = await inspect(page);
  const said = await page.evaluate(() => window.__said);
  const { json: map } = await routes.engrave('violin', 'tablet-landscape');
  const halves = pageHalves(map);
  const halfName = (bar) => `${halves.halfOfBar(bar).page}${halves.halfOfBar(bar).half}`;

  // One cursor move per beat that sounded, on its bar and beat.
  const played = moves.filter((m) => m.playing && beats.has(m.index));
  expect(played.map((m) => m.index)).toEqual([...beats.keys()]);
  for (const m of played) expect([m.index, m.bar, m.beat]).toEqual([m.index, beats.get(m.index).bar, beats.get(m.index).beat]);
  // The half with each coming system was on screen one beat before its first bar, at every change
  // of half (page 1 bottom → page 2 top → back to page 1 top by the D.C. → page 1 bottom).
  const changes = played.filter((m, k) => k > 0 && m.beat === 1 && halfName(m.bar) !== halfName(played[k - 1].bar));
  expect(changes.map((m) => `${m.bar}:${halfName(m.bar)}`)).toEqual(['6:1bottom', '12:2top', '14:1top', '18:1bottom']);
  for (const m of changes) {
    const before = played[played.indexOf(m) - 1];
    expect({ bar: m.bar, before: before.screen }).toEqual({ bar: m.bar, before: expect.stringContaining(halfName(m.bar)) });
  }
  // Each turn spoken once, never a beat: the live region heard the turns (and the cue), not the bars.
  const turnsPlayed = turns.filter((x) => x.local > played[0].local - 1);
  const spokenTurns = said.filter((s) => s.startsWith('Page turn'));
  expect(spokenTurns).toEqual(['Page turn: Page 2, top half', 'Page turn: Page 1, top half', 'Page turn: Page 1, bottom half']);
  expect(turnsPlayed.map((x) => x.screen)).toEqual(['2top/1bottom', '2top/1top', '1top/1bottom']);
  expect(said.length).toBeLessThan(played.length / 4);
  expect(problems).toEqual([]);

  // Timing: each move at the server's time for its beat (as the beat display, part-page.test.js).
  const errors = played.map((m) => Math.abs(m.local + offset - beats.get(m.index).at));
  const displays = (await page.evaluate(() => window.__part.displays())).filter((d) => beats.has(d.index));
  const shownErrors = displays.map((d) => Math.abs(d.local + offset - beats.get(d.index).at));
  const worst = errors.indexOf(Math.max(...errors));
  console.log(
    `worst cursor move: beat ${played[worst].index}, ${errors[worst].toFixed(2)} ms; beat display then ${shownErrors[worst]?.toFixed(2)} ms, its p99 ${quantile(shownErrors, 0.99).toFixed(2)} ms`,
  );
  console.log(
    `part notation: ${played.length} cursor moves, |error| p50 ${quantile(errors, 0.5).toFixed(2)} ms, p99 ${quantile(errors, 0.99).toFixed(2)} ms, max ${Math.max(...errors).toFixed(2)} ms; ${turnsPlayed.length} turns, ${spokenTurns.length} spoken`,
  );
  expect(quantile(errors, 0.99)).toBeLessThanOrEqual(TOLERANCE_MS);
  await page.close();
}, 150_000);

test('a score with printed bars: the printed bar (with its pass) is the big number, in the cue countdown too', async () => {
  const { page, problems } = await openPage(browser, TABLET);
  await page.goto(`${show.audienceUrl}/part/${show.partKey}/#violin`);
  await waitInPage(page, () => window.__part.part() === 'violin');
  // Performance bar 15 is printed bar 2, its second time (after the D.C.).
  await control(show, 'POST', '/api/transport', { action: 'seek', bar: 15 });
  await waitInPage(page, () => document.getElementById('printed-bar').textContent.includes('15'));
  const shown = await page.evaluate(() => ({
    big: `${document.getElementById('bar').textContent}:${document.getElementById('beat').textContent}`,
    small: document.getElementById('printed-bar').textContent,
    label: document.getElementById('counter').getAttribute('aria-label'),
  }));
  expect(shown).toEqual({ big: '2:1', small: '2nd time · running bar 15', label: expect.stringContaining('2 (2nd time)') });
  // The cue at performance bar 14 (printed 1, 2nd time), seen from the top: named by its printed bar.
  await control(show, 'POST', '/api/transport', { action: 'seek', bar: 1 });
  await waitInPage(page, () => document.getElementById('bar').textContent === '0');
  expect(await page.evaluate(() => document.getElementById('cue-where').textContent)).toBe('bar 1 (2nd time) beat 1 · /violin/cue');
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);
