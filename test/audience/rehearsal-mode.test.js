// Rehearsal mode on real phones (docs/how-to/rehearse.md#rehearsal-mode): real Chromium pages against a real
// show server. While the operator rehearses, a phone shows the calm "Rehearsal — the show starts
// soon" screen — no bar:beat, no view text, no sound, no vote, no reaction — said once in the
// polite live region and clean for axe; a phone that joins during rehearsal sees it too; the
// server refuses votes and taps; turning it off shows the show's current state at once.
// Screenshots: artifacts/audience/rehearsal-*.png.
import { expect, test, beforeAll, afterAll } from '@jest/globals';
import { ARTIFACTS, control, launchBrowser, openPage, startShow, waitInPage } from './support/browser.js';
import { acquireBrowserLock } from './support/exclusive.js';
import { audit, describeViolations } from './support/axe.js';
import { installProbes } from './support/a11y-probes.js';
import { waitFor } from '../support/clients.js';
import { writeRehearsalModeScore } from '../support/rehearsal-mode-score.js';

let browser;
let show;
let release;
beforeAll(async () => {
  release = await acquireBrowserLock();
  [browser, show] = await Promise.all([launchBrowser(), startShow({ scorePath: writeRehearsalModeScore(), autoplay: false })]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await show?.close();
  await release?.();
});

const synced = () => window.__tutti.connection().live && (window.__tutti.clock()?.total ?? 0) >= 8;
/** What a person sees on the page (innerText leaves out what is not displayed). */
const visibleText = (page) => page.evaluate(() => document.body.innerText);
/** The bar the server is on now. */
const serverBar = () => show.show.engine.status().position.bar;

async function phone() {
  const opened = await openPage(browser);
  await opened.context.addInitScript(installProbes);
  await opened.page.goto(`${show.audienceUrl}/`);
  await waitInPage(opened.page, synced);
  return opened;
}

test('rehearsal screen instead of the show (no view, sound, vote or reaction), for late joiners too; off shows the show at once', async () => {
  const on = await control(show, 'POST', '/api/rehearsal-mode', { on: true });
  expect(on.rehearsal).toBe(true);
  expect((await control(show, 'GET', '/api/status')).rehearsal).toBe(true);

  const first = await phone();
  const { page } = first;
  await waitInPage(page, () => window.__tutti.rehearsal());
  expect(await page.isVisible('#rehearsal')).toBe(true);
  expect(await page.textContent('#rehearsal h2')).toBe('Rehearsal');
  expect(await page.textContent('#title')).toBe('Rehearsal test'); // which show starts soon
  await page.click('#join'); // sound on: any cue would now be put on the audio clock
  await waitInPage(page, () => document.body.classList.contains('sound-on'));

  // The run-through plays past the bell (bars 1 and 5), the prompt (bar 6) and the reaction window (bar 12).
  show.show.engine.play();
  await waitFor(() => show.votes.status()?.phase === 'open', 15_000, 'the prompt open for the console');
  // The console has the round; phones get no vote in the state, and a vote is refused.
  expect(show.show.stream.state().vote).toBeUndefined();
  const key = show.votes.status().key;
  const voted = await fetch(`${show.audienceUrl}/vote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, option: 'a', device: 'rehearsal-device-0001' }),
  });
  expect(await voted.json()).toMatchObject({ ok: false, reason: 'closed' });
  expect(show.votes.status().total).toBe(0);
  expect(await page.isVisible('#vote')).toBe(false);

  // A phone that joins during the rehearsal sees the screen at once.
  const late = await phone();
  await waitInPage(late.page, () => window.__tutti.rehearsal());
  expect(await late.page.isVisible('#rehearsal')).toBe(true);
  expect(await late.page.isVisible('#counter')).toBe(false);

  await waitFor(() => show.reactions.status() !== null, 15_000, 'the reaction window open at the server');
  const tapped = await fetch(`${show.audienceUrl}/tap`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"n":3}',
  });
  expect(tapped.status).toBe(409);
  expect(await page.isVisible('#react')).toBe(false);
  await waitFor(() => serverBar() >= 15, 15_000, 'bar 15');

  // Nothing of the show was shown, played or spoken; the screen was said once, politely.
  const text = await visibleText(page);
  expect(text).toContain('The show starts soon');
  expect(text).not.toMatch(/Bar \d+|Welcome|Which way|Tap/);
  for (const id of ['#counter', '#stage', '#section', '#transport', '#progress']) expect(await page.isVisible(id)).toBe(false);
  expect(await page.evaluate(() => window.__tutti.audio())).toEqual([]);
  expect(await page.evaluate(() => window.__tutti.viewChanges())).toEqual([]);
  const said = await page.evaluate(() => window.__live.slice());
  expect(said.filter((s) => s.id === 'announce').map((s) => s.text)).toEqual(['Rehearsal — the show starts soon.']);
  expect(said.filter((s) => /Bar |Section|Vote/.test(s.text))).toEqual([]);
  const violations = describeViolations(await audit(page));
  expect(violations).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}rehearsal-screen.png` });

  // Off: the show's current bar and view are on screen at once (well within a bar at 240 bpm).
  // The prompt's result is still held for the console, but phones never saw that round: it stays off them.
  expect(show.votes.status()).toMatchObject({ phase: 'closed', rehearsal: true });
  const offAt = Date.now();
  const off = await control(show, 'POST', '/api/rehearsal-mode', { on: false });
  expect(off.rehearsal).toBe(false);
  const shownAfter = await waitInPage(page, () => {
    const text = document.getElementById('text');
    return !window.__tutti.rehearsal() &&
      text.checkVisibility() &&
      /^Bar \d+$/.test(text.textContent) &&
      document.getElementById('counter').checkVisibility()
      ? { text: text.textContent, bar: Number(document.getElementById('bar').textContent) }
      : null;
  });
  const tookMs = Date.now() - offAt;
  expect(tookMs).toBeLessThan(1000);
  const bar = serverBar();
  // The counter is on the bar being played, and the view is that bar's (a text every 2 bars).
  expect(Math.abs(shownAfter.bar - bar)).toBeLessThanOrEqual(1);
  expect(shownAfter.text).toBe(`Bar ${shownAfter.bar % 2 === 1 ? shownAfter.bar : shownAfter.bar - 1}`);
  expect(await page.isVisible('#rehearsal')).toBe(false);
  expect(show.show.stream.state().vote).toBeUndefined();
  expect(await page.isVisible('#vote')).toBe(false);
  await waitInPage(late.page, () => !window.__tutti.rehearsal() && document.getElementById('counter').checkVisibility());
  // Sounds are back: the next bell (every 4 bars) is put on the audio clock.
  await waitInPage(page, () => window.__tutti.audio().some((a) => a.at && !a.skipped), undefined, 10_000);
  await page.screenshot({ path: `${ARTIFACTS}rehearsal-off.png` });
  expect([...first.problems, ...late.problems]).toEqual([]);
  await first.context.close();
  await late.context.close();
}, 90_000);

test('bad input to POST /api/rehearsal-mode is a 400 and changes nothing', async () => {
  show.show.setRehearsal(false);
  for (const body of ['{"on":"yes"}', '{}', '{"on":true,"extra":1}', 'not json', '{"on":1}']) {
    const res = await fetch(`${show.controlUrl}/api/rehearsal-mode`, {
      method: 'POST',
      headers: { authorization: `Bearer ${show.token}`, 'content-type': 'application/json' },
      body,
    });
    expect({ body, status: res.status }).toEqual({ body, status: 400 });
    expect(await res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  }
  expect(show.show.rehearsal()).toBe(false);
  const unauthorised = await fetch(`${show.controlUrl}/api/rehearsal-mode`, { method: 'POST', body: '{"on":true}' });
  expect(unauthorised.status).toBe(401);
  expect(show.show.rehearsal()).toBe(false);
});
