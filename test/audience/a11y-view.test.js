// How both pages look for people who set their phone up differently (docs/reference/accessibility-and-languages.md#accessibility
// and "Languages"), in real Chromium against real show servers:
// - reduced motion (emulated): no beat pulse or flash at all, no colour transitions;
// - 320 CSS px wide (WCAG 1.4.10, = 200 % zoom of a 640 px window) and text at 200 % on a phone:
//   no horizontal scrolling, no clipped or overlapping text (screenshots artifacts/audience/a11y-zoom-*.png);
// - the page's own words in the phone's language (de, fr; ja falls back to English), the
//   composer's words as written.

import { acquireBrowserLock } from './support/exclusive.js';
import { ARTIFACTS, launchBrowser, openPage, startShow, waitInPage } from './support/browser.js';
import { installProbes } from './support/a11y-probes.js';
import { writeTempScore } from './support/temp-score.js';
import { writeVoteScore } from '../support/vote-score.js';

/** 4/4 at 200 bpm with colour changes on every beat of bar 2 (what a flash limit must tame). */
const FAST_SCORE = {
  format: 'tutti-score/1',
  id: 'a11y-view',
  title: 'Fast colours',
  bars: 200,
  meter: [{ bar: 1, beats: 4, unit: 4 }],
  tempo: [{ at: { bar: 1 }, bpm: 200 }],
  sections: [{ at: { bar: 1 }, mark: 'A', name: 'A long section name that has to wrap on a small screen' }],
  view: { text: 'Raise your phone towards the stage', instruction: 'and keep it there until the colour changes', color: '#203040' },
  parts: [{ id: 'vln', name: 'First violin, desk two', osc: '/vln' }],
  cues: [
    { at: { bar: 2 }, osc: { part: 'vln', address: '/cue', args: ['A long cue text for the first violin', 'pp'] } },
    { at: { bar: 30 }, osc: { part: 'vln', address: '/cue', args: ['B', 'mf'] } },
    { at: { bar: 150 }, osc: { part: 'vln', address: '/cue', args: ['C', 'f'] } },
  ],
};

let browser;
let release;
let show;
let voteShow;
let score;

beforeAll(async () => {
  release = await acquireBrowserLock();
  score = await writeTempScore(FAST_SCORE);
  [browser, show, voteShow] = await Promise.all([
    launchBrowser(),
    startShow({ scorePath: score.file, autoplay: true }),
    startShow({ scorePath: writeVoteScore({ beats: 400, bars: 200 }), autoplay: false }),
  ]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await show?.close();
  await voteShow?.close();
  await score?.remove();
  await release?.();
});

test('reduced motion: no beat pulse, no beat flash, no colour transition on either page', async () => {
  const audience = await openPage(browser);
  const part = await openPage(browser, { viewport: { width: 1180, height: 820 }, isMobile: false, deviceScaleFactor: 1 });
  for (const { context, page } of [audience, part]) {
    await context.addInitScript(installProbes);
    await page.emulateMedia({ reducedMotion: 'reduce' });
  }
  await audience.page.goto(`${show.audienceUrl}/`);
  await part.page.goto(`${show.audienceUrl}/part/${show.partKey}/#vln`);
  await waitInPage(audience.page, () => window.__tutti.displays().length >= 12);
  await waitInPage(part.page, () => window.__part.part() === 'vln' && window.__part.displays().length >= 12);
  expect(await audience.page.evaluate(() => window.__flashes.length)).toBe(0);
  expect(await part.page.evaluate(() => window.__flashes.length)).toBe(0);
  expect(await audience.page.evaluate(() => getComputedStyle(document.getElementById('stage')).transitionDuration)).toBe('0s');
  expect(await part.page.evaluate(() => getComputedStyle(document.querySelector('.now')).transitionDuration)).toBe('0s');
  // The same pages without the setting do pulse and flash (downbeats: 200 bpm is too fast for every beat).
  for (const { page } of [audience, part]) {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await waitInPage(page, () => window.__flashes.length >= 2, undefined, 5_000);
  }
  await audience.context.close();
  await part.context.close();
}, 60_000);

test('audience page: the haptic downbeat is off until turned on, then buzzes on downbeats only', async () => {
  const { context, page } = await openPage(browser);
  await context.addInitScript(installProbes);
  await page.goto(`${show.audienceUrl}/`);
  await waitInPage(page, () => window.__tutti.displays().length >= 8);
  expect(await page.isVisible('#vibrate')).toBe(true);
  expect(await page.getAttribute('#vibrate', 'aria-pressed')).toBe('false');
  expect(await page.evaluate(() => window.__vibrations.length)).toBe(0);
  await page.click('#vibrate');
  const on = await page.evaluate(() => performance.timeOrigin + performance.now());
  await waitInPage(page, () => window.__vibrations.length >= 3, undefined, 10_000);
  const shown = await page.evaluate(() => window.__tutti.displays());
  const buzzes = await page.evaluate(() => window.__vibrations.slice());
  expect(buzzes.every((b) => b.beat === '1' && b.at >= on)).toBe(true);
  const downbeats = shown.filter((d) => d.beat === 1 && d.local > on + 5).length;
  expect(Math.abs(buzzes.length - downbeats)).toBeLessThanOrEqual(1);
  // Remembered on the phone: a reload keeps it on.
  await page.reload();
  await waitInPage(page, () => document.getElementById('vibrate').getAttribute('aria-pressed') === 'true');
  await context.close();
}, 60_000);

/** Overflow, clipping and overlap of the page's key texts, measured in the page. */
const layoutProblems = (ids) => {
  const problems = [];
  const root = document.scrollingElement;
  if (root.scrollWidth > window.innerWidth + 1) problems.push(`page scrolls sideways: ${root.scrollWidth} > ${window.innerWidth}`);
  const boxes = [];
  for (const id of ids) {
    const el = document.getElementById(id) ?? document.querySelector(id);
    if (!el || el.hidden || getComputedStyle(el).display === 'none' || el.getClientRects().length === 0) continue;
    const r = el.getBoundingClientRect();
    if (r.left < -1 || r.right > window.innerWidth + 1)
      problems.push(`${id} outside the viewport: ${Math.round(r.left)}–${Math.round(r.right)}`);
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
      problems.push(`${id} clipped: ${el.scrollWidth} > ${el.clientWidth}`);
    for (const child of el.querySelectorAll('*')) {
      const c = child.getBoundingClientRect();
      if (c.width > 0 && (c.left < -1 || c.right > window.innerWidth + 1))
        problems.push(`${id} > ${child.id || child.className || child.tagName} outside the viewport`);
    }
    boxes.push([id, r, el]);
  }
  for (let i = 0; i < boxes.length; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) {
      const [a, p, x] = boxes[i];
      const [b, q, y] = boxes[j];
      if (x.contains(y) || y.contains(x)) continue; // a panel and the text inside it
      if (p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1) problems.push(`${a} overlaps ${b}`);
    }
  }
  return problems;
};

const AUDIENCE_KEYS = [
  'title',
  'conn',
  'venue-notice',
  'vote',
  'section',
  'counter',
  'beats',
  'transport',
  'stage',
  'progress-label',
  'join',
  'vibrate',
];
const PART_KEYS = [
  'part-name',
  'score-title',
  'change-part',
  'click',
  'vibrate',
  'conn',
  'counter',
  'section',
  'status',
  'cue',
  'countdown',
  'cue-text',
  'cue-where',
  'nextup',
];
const NARROW = { viewport: { width: 320, height: 640 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

test.each([
  ['320 CSS px', NARROW, '100%'],
  ['text 200 %', { viewport: { width: 390, height: 844 } }, '200%'],
])(
  'no clipped or overlapping text at %s (audience page with a vote, part page)',
  async (name, options, textSize) => {
    const tag = name.replace(/\W+/g, '-');
    const audience = await openPage(browser, options);
    const part = await openPage(browser, options);
    await audience.page.goto(`${voteShow.audienceUrl}/`);
    await part.page.goto(`${show.audienceUrl}/part/${show.partKey}/#vln`);
    for (const { page } of [audience, part])
      await page.evaluate((size) => {
        document.documentElement.style.fontSize = size;
      }, textSize);
    voteShow.show.engine.play();
    await waitInPage(audience.page, () => window.__tutti.vote().phase === 'open', undefined, 15_000);
    await audience.page.click('#join');
    await waitInPage(part.page, () => window.__part.part() === 'vln' && window.__part.displays().length > 2);
    // The widest numbers: a three-digit bar and a three-digit countdown (to bar 150).
    show.show.engine.seek(112);
    await waitInPage(
      part.page,
      () => Number(document.getElementById('bar').textContent) >= 112 && document.getElementById('countdown').textContent.length === 3,
    );
    const audienceProblems = await audience.page.evaluate(layoutProblems, AUDIENCE_KEYS);
    await audience.page.screenshot({ path: `${ARTIFACTS}a11y-zoom-audience-${tag}.png`, fullPage: true });
    const partProblems = await part.page.evaluate(layoutProblems, PART_KEYS);
    await part.page.screenshot({ path: `${ARTIFACTS}a11y-zoom-part-${tag}.png`, fullPage: true });
    voteShow.show.engine.stop();
    expect({ audienceProblems, partProblems }).toEqual({ audienceProblems: [], partProblems: [] });
    await audience.context.close();
    await part.context.close();
  },
  60_000,
);

test.each([
  ['de-DE', 'de', 'Beitreten · tippen, um den Ton einzuschalten', 'Wähle deine Stimme', 'Klick: aus'],
  ['fr-FR', 'fr', 'Rejoindre · touchez pour activer le son', 'Choisissez votre partie', 'Clic : non'],
  ['ja-JP', 'en', 'Join · tap to turn on sound', 'Pick your part', 'Click: off'],
])(
  "the page's own words in the phone's language: %s → %s; the composer's words as written",
  async (locale, lang, join, pick, clickOff) => {
    const audience = await openPage(browser, { locale });
    const part = await openPage(browser, { locale, viewport: { width: 1180, height: 820 }, isMobile: false, deviceScaleFactor: 1 });
    expect(await audience.page.evaluate(() => navigator.languages[0])).toBe(locale);
    await audience.page.goto(`${show.audienceUrl}/`);
    await part.page.goto(`${show.audienceUrl}/part/${show.partKey}/`);
    await waitInPage(audience.page, () => window.__tutti.displays().length > 0 && window.__tutti.connection().live);
    await waitInPage(part.page, () => document.querySelectorAll('#part-list button').length === 2);
    expect(await audience.page.evaluate(() => document.documentElement.lang)).toBe(lang);
    expect(await audience.page.textContent('#join')).toBe(join);
    expect(await part.page.evaluate(() => document.documentElement.lang)).toBe(lang);
    expect(await part.page.textContent('#part-name')).toBe(pick);
    expect(await part.page.textContent('#click')).toBe(clickOff);
    const words = await audience.page.evaluate(() => ({
      conn: document.getElementById('conn-text').textContent,
      transport: document.getElementById('transport').textContent,
      label: document.getElementById('counter').getAttribute('aria-label'),
      title: document.getElementById('title').textContent,
      text: document.getElementById('text').textContent,
      section: document.getElementById('section').textContent,
    }));
    const expected = {
      de: { conn: 'live', transport: /^▶ läuft · ♩ = 200$/, label: /^Takt \d+, Schlag \d$/ },
      fr: { conn: 'en direct', transport: /^▶ en cours · ♩ = 200$/, label: /^Mesure \d+, temps \d$/ },
      en: { conn: 'live', transport: /^▶ playing · ♩ = 200$/, label: /^Bar \d+, beat \d$/ },
    }[lang];
    expect(words.conn).toBe(expected.conn);
    expect(words.transport).toMatch(expected.transport);
    expect(words.label).toMatch(expected.label);
    // The composer's words are not translated.
    expect(words.title).toBe('Fast colours');
    expect(words.text).toBe('Raise your phone towards the stage');
    expect(words.section).toBe(`A — ${FAST_SCORE.sections[0].name}`);
    await audience.page.screenshot({ path: `${ARTIFACTS}a11y-language-${lang}-audience.png` });
    await part.page.screenshot({ path: `${ARTIFACTS}a11y-language-${lang}-part.png` });
    await audience.context.close();
    await part.context.close();
  },
  60_000,
);
