// Accessibility of the audience page and the musicians' part page (docs/reference/accessibility-and-languages.md#accessibility)
// in real Chromium against real show servers:
// - axe-core (WCAG 2.x A/AA/AAA rules and best practices) finds nothing in any state: waiting,
//   playing, vote open, vote result, network lost (audience page); picker, playing at 200 bpm,
//   network lost (part page). The venue-offline states of the edge: test/edge/a11y-venue.test.js;
// - the screen reader hears sections, votes and notices through live regions, never every beat;
// - no more than three flashes in any second (WCAG 2.3.1) at 200/240 bpm, none with reduced motion;
// - the haptic downbeat buzzes on downbeats only, and only once turned on;
// - no text clipped or overlapping at 320 CSS px and with text at 200 %.
// Screenshots: artifacts/audience/a11y-*.png.

import { acquireBrowserLock } from './support/exclusive.js';
import { ARTIFACTS, launchBrowser, openPage, startShow, waitInPage } from './support/browser.js';
import { audit, describeViolations } from './support/axe.js';
import { installProbes, mostInOneSecond } from './support/a11y-probes.js';
import { writeVoteScore } from '../support/vote-score.js';
import { writeTempScore } from './support/temp-score.js';

const TABLET = { viewport: { width: 1180, height: 820 }, deviceScaleFactor: 1, hasTouch: true, isMobile: false };

/** 4/4 at 200 bpm (a beat every 300 ms: faster than three flashes a second), two parts, sections A–C. */
const FAST_SCORE = {
  format: 'tutti-score/1',
  id: 'a11y-fast',
  title: 'Fast part',
  bars: 14,
  meter: [{ bar: 1, beats: 4, unit: 4 }],
  tempo: [{ at: { bar: 1 }, bpm: 200 }],
  sections: [
    { at: { bar: 1 }, mark: 'A', name: 'Opening' },
    { at: { bar: 5 }, mark: 'B' },
    { at: { bar: 9 }, mark: 'C' },
  ],
  parts: [
    { id: 'vln', name: 'Violin', osc: '/vln' },
    { id: 'vc', name: 'Cello', osc: '/vc' },
  ],
  cues: [
    { at: { bar: 2 }, osc: { part: 'vln', address: '/cue', args: ['A2', 'pp'] } },
    { at: { bar: 6 }, osc: { part: 'vln', address: '/cue', args: ['B', 'mf'] } },
    { at: { bar: 10 }, osc: { part: 'vln', address: '/cue', args: ['C', 'f'] } },
    { at: { bar: 12 }, osc: { part: 'vc', address: '/cue', args: ['end'] } },
  ],
};

let browser;
let release;
let voteShow;
let fastShow;
let fastScore;

beforeAll(async () => {
  release = await acquireBrowserLock();
  fastScore = await writeTempScore(FAST_SCORE);
  [browser, voteShow, fastShow] = await Promise.all([
    launchBrowser(),
    startShow({ scorePath: writeVoteScore({ beats: 24 }), autoplay: false }),
    startShow({ scorePath: fastScore.file, autoplay: false }),
  ]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await voteShow?.close();
  await fastShow?.close();
  await fastScore?.remove();
  await release?.();
});

/** A page with the probes in, before its own scripts run. */
async function probedPage(options = {}) {
  const opened = await openPage(browser, options);
  await opened.context.addInitScript(installProbes);
  return opened;
}

/** axe finds nothing; the state's name in the message when it does. */
async function expectNoViolations(page, state) {
  const violations = describeViolations(await audit(page));
  expect({ state, violations }).toEqual({ state, violations: [] });
}

/**
 * After the show server went away: the page (its inspector `window[inspector]`) notices, says
 * "Connection lost" in a live region, has no axe violations; no page errors but the refused reconnects.
 */
async function expectNetworkLost(page, problems, inspector, name) {
  await waitInPage(page, (key) => !window[key].connection().live, inspector, 20_000);
  await waitInPage(page, () => window.__live.some((s) => s.text === 'Connection lost. Reconnecting…'));
  await expectNoViolations(page, `${name}: network lost`);
  await page.screenshot({ path: `${ARTIFACTS}a11y-${name}-offline.png` });
  await page.context().close();
  expect(problems.filter((p) => !/ERR_CONNECTION_REFUSED|WebSocket/.test(p))).toEqual([]);
}

const live = (page) => page.evaluate(() => window.__live.slice());
const flashes = (page) => page.evaluate(() => window.__flashes.slice());
const synced = () => window.__tutti.connection().live && (window.__tutti.clock()?.total ?? 0) >= 8;

test('audience page: no axe violations waiting, playing, vote open, result, network lost; sections, votes and notices spoken, beats not; ≤ 3 pulses a second', async () => {
  const { page, problems } = await probedPage();
  await page.goto(`${voteShow.audienceUrl}/`);
  await waitInPage(page, synced);
  await waitInPage(page, () => /waiting/.test(document.getElementById('transport').textContent));
  await expectNoViolations(page, 'waiting');
  await page.screenshot({ path: `${ARTIFACTS}a11y-audience-waiting.png` });
  await page.click('#join');

  const started = Date.now();
  voteShow.show.engine.play();
  await waitInPage(page, () => /playing/.test(document.getElementById('transport').textContent));
  await expectNoViolations(page, 'playing');
  await waitInPage(page, () => window.__tutti.vote().phase === 'open', undefined, 15_000);
  await expectNoViolations(page, 'vote open');
  await page.screenshot({ path: `${ARTIFACTS}a11y-audience-vote-open.png` });
  await page.click('[data-option="c"]');
  await waitInPage(page, () => window.__tutti.vote().phase === 'result', undefined, 15_000);
  await expectNoViolations(page, 'vote result');
  await page.screenshot({ path: `${ARTIFACTS}a11y-audience-vote-result.png` });
  // The winner jumps to section C; then on to D.
  await waitInPage(page, () => document.getElementById('section').textContent === 'D', undefined, 20_000);
  const playedMs = Date.now() - started;

  // What a screen reader said by itself: the sections, the vote's opening, closing and result —
  // each once — and nothing per beat (the bar:beat counter is a role="timer", not a live region).
  const said = await live(page);
  const texts = said.map((s) => s.text);
  const beats = await page.evaluate(() => window.__tutti.displays().length);
  expect(beats).toBeGreaterThan(40);
  expect(texts).toEqual(expect.arrayContaining(['Section A', 'Section B', 'Section C', 'Section D']));
  expect(texts.filter((s) => /^Section /.test(s))).toEqual(['Section A', 'Section B', 'Section C', 'Section D']);
  expect(texts.filter((s) => s.startsWith('Vote: Which way?'))).toEqual(['Vote: Which way? Choices: To C, To D, Stay.']);
  expect(texts.filter((s) => /counting/.test(s))).toHaveLength(1);
  expect(texts.filter((s) => s.startsWith('Vote result'))).toEqual(['Vote result: To C: 1 of 1 vote']);
  expect(said.every((s) => ['announce', 'announce-urgent'].includes(s.id))).toBe(true);
  // Few messages against many beats: nothing is said per beat.
  expect(said.length).toBeLessThan(beats / 5);

  // The pulse on the counter: 240 bpm is faster than three flashes a second, so downbeats only.
  const pulses = (await flashes(page)).filter((f) => f.what === 'pulse');
  expect(pulses.length).toBeGreaterThan(playedMs / 1000 / 2);
  expect(mostInOneSecond(pulses)).toBeLessThanOrEqual(3);
  expect(pulses.every((p) => p.beat === '1')).toBe(true);

  // The network goes: the page says so and is still clean for axe.
  await voteShow.close();
  voteShow = null;
  await expectNetworkLost(page, problems, '__tutti', 'audience');
}, 120_000);

test('part page at 200 bpm: no axe violations (picker, playing); section and next cue spoken, not the countdown; ≤ 3 flashes a second; vibrate on downbeats once turned on', async () => {
  const { page, problems } = await probedPage(TABLET);
  await page.goto(`${fastShow.audienceUrl}/part/${fastShow.partKey}/`);
  await waitInPage(page, () => document.querySelectorAll('#part-list button').length === 3);
  await expectNoViolations(page, 'part picker');
  await page.click('#part-list button[data-part="vln"]');
  await waitInPage(page, () => window.__part.part() === 'vln' && (window.__part.clock()?.total ?? 0) >= 8);
  // Haptics: the toggle is there (Chromium has navigator.vibrate) and off by default.
  expect(await page.getAttribute('#vibrate', 'aria-pressed')).toBe('false');
  expect(await page.isVisible('#vibrate')).toBe(true);

  fastShow.show.engine.play();
  await waitInPage(page, () => window.__part.displays().length >= 8);
  await expectNoViolations(page, 'part playing');
  await page.screenshot({ path: `${ARTIFACTS}a11y-part-playing.png` });
  // Bars 1–4 without vibration, then the musician turns it on.
  await waitInPage(page, () => Number(document.getElementById('bar').textContent) >= 4, undefined, 10_000);
  expect(await page.evaluate(() => window.__vibrations.length)).toBe(0);
  await page.click('#vibrate');
  expect(await page.getAttribute('#vibrate', 'aria-pressed')).toBe('true');
  const turnedOn = await page.evaluate(() => performance.timeOrigin + performance.now());
  await waitInPage(page, () => document.getElementById('section').textContent === 'C', undefined, 15_000);
  await waitInPage(page, () => Number(document.getElementById('bar').textContent) >= 11, undefined, 10_000);

  const shown = await page.evaluate(() => window.__part.displays());
  const flashed = (await flashes(page)).filter((f) => f.what === 'flash');
  // 200 bpm: a beat every 300 ms. Downbeats only: one flash a bar (1.2 s), never more than three a second.
  expect(shown.length).toBeGreaterThan(30);
  expect(flashed.length).toBeGreaterThanOrEqual(5);
  expect(mostInOneSecond(flashed)).toBeLessThanOrEqual(3);
  expect(flashed.every((f) => f.beat === '1')).toBe(true);

  // Vibrations: none before the toggle; after it, one per downbeat shown, and only downbeats.
  const buzzes = await page.evaluate(() => window.__vibrations.slice());
  const downbeatsAfter = shown.filter((d) => d.beat === 1 && d.local > turnedOn + 5).length;
  expect(buzzes.every((b) => b.beat === '1' && b.at >= turnedOn)).toBe(true);
  expect(buzzes.length).toBeGreaterThanOrEqual(downbeatsAfter - 1);
  expect(buzzes.length).toBeLessThanOrEqual(downbeatsAfter + 1);
  expect(buzzes.length).toBeGreaterThanOrEqual(4);

  // Spoken: the sections, the next cue when it changes; not the countdown that changes every beat.
  const said = await live(page);
  const texts = said.map((s) => s.text);
  expect(texts.filter((s) => /^Section /.test(s))).toEqual(['Section A — Opening', 'Section B', 'Section C']);
  expect(texts).toEqual(
    expect.arrayContaining(['Next cue: A2 · pp, bar 2 beat 1.', 'Next cue: B · mf, bar 6 beat 1.', 'Next cue: C · f, bar 10 beat 1.']),
  );
  expect(said.length).toBeLessThan(shown.length / 4);
  expect(texts.some((s) => /^\d+\s*beats?$/.test(s) || /^\d+ beats?/.test(s))).toBe(false);

  // The network goes: the page says so and is still clean for axe.
  await fastShow.close();
  fastShow = null;
  await expectNetworkLost(page, problems, '__part', 'part');
}, 120_000);
