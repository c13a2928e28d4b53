// The engraved score on the audience's phones (docs/how-to/part-pages-notation.md#let-the-audience-follow-the-score)
// in real Chromium at a phone viewport against a real show server engraving Dichterliebe: before
// the cue that shows the piano part, the phone has fetched nothing of the notation; after it, the
// phone layout's bar map and pages (score media, no part key), and the cursor's data-cursor-bar /
// data-cursor-beat follow every beat shown, with bar:beat and the cue's text around the music. A
// cue that removes `score` takes the pages down; axe finds nothing on the page with the music. A part not there yet (503 while the venue engraves,
// 404 at the edge before the upload) is asked for again, the phone saying so in one line.
// Screenshot: artifacts/audience/audience-score-phone.png (the how-to's docs/images/audience-score-phone.png).

import { acquireBrowserLock } from './support/exclusive.js';
import { ARTIFACTS, launchBrowser, openPage, control, waitInPage } from './support/browser.js';
import { notationShow } from './support/notation-show.js';
import { audit, describeViolations } from './support/axe.js';

/** Looked at, and copied to docs/images/audience-score-phone.png for the how-to. */
const SCREENSHOT = `${ARTIFACTS}audience-score-phone.png`;

let browser;
let releaseLock;
let song;

beforeAll(async () => {
  releaseLock = await acquireBrowserLock();
  [song, browser] = await Promise.all([
    notationShow('Dichterliebe01.xml', 150, {
      cues: [
        { at: { bar: 3 }, view: { score: 'piano', text: 'Follow the piano' } },
        { at: { bar: 22 }, view: { score: null, text: 'Thank you' } },
      ],
    }),
    launchBrowser(),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await song?.close();
  await releaseLock?.();
});

test('a cue shows the part: pages fetched only then, the cursor on every beat shown, taken down by a later cue', async () => {
  const { show } = song;
  // The phone may also find the part still being engraved (503, then asked again); here it is ready.
  await show.notation.settled();
  const { page, problems } = await openPage(browser, { deviceScaleFactor: 1 });
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${show.audienceUrl}/`);
  await waitInPage(page, () => (window.__tutti.clock()?.total ?? 0) >= 8, undefined, 20_000);
  // First visit: nothing of the notation, and no score view yet.
  expect(requests.filter((u) => /notation/.test(u))).toEqual([]);
  expect(await page.evaluate(() => document.getElementById('music').hidden)).toBe(true);

  // Every cursor attribute change, with what bar:beat said at that moment.
  await page.evaluate(() => {
    window.__cursor = [];
    const cursor = document.getElementById('cursor');
    new MutationObserver(() =>
      window.__cursor.push({
        bar: cursor.dataset.cursorBar,
        beat: cursor.dataset.cursorBeat,
        shown: `${document.getElementById('bar').textContent}:${document.getElementById('beat').textContent}`,
      }),
    ).observe(cursor, { attributes: true, attributeFilter: ['data-cursor-bar', 'data-cursor-beat'] });
  });
  const beats = new Map();
  const onBeat = (b) => beats.set(b.index, b);
  show.show.events.on('beat', onBeat);
  try {
    await control(show, 'POST', '/api/transport', { action: 'play' });
    await waitInPage(page, () => window.__tutti.score().loaded, undefined, 20_000);
    await waitInPage(page, () =>
      [...document.querySelectorAll('#sheet .slot:not([hidden]) img')].every((i) => i.complete && i.naturalWidth > 0),
    );
    await waitInPage(page, () => window.__tutti.score().moves.some((m) => m.playing && m.bar === 10), undefined, 20_000);
    await page.screenshot({ path: SCREENSHOT });
    expect(describeViolations(await audit(page))).toEqual([]);
    await waitInPage(page, () => window.__tutti.score().part === null, undefined, 30_000);
    await waitInPage(page, () => window.__tutti.state()?.transport === 'stopped', undefined, 30_000);
  } finally {
    show.show.events.off('beat', onBeat);
  }

  const asked = requests.filter((u) => /notation/.test(u)).map((u) => new URL(u).pathname);
  expect(asked).toContain('/media/notation/piano/phone.json');
  expect(asked).toContain('/media/notation/piano/phone/1.svg');
  expect(asked.every((p) => p.startsWith('/media/notation/piano/phone'))).toBe(true);
  expect(requests.some((u) => /verovio|\.wasm|\/part\//i.test(u))).toBe(false);

  // The cursor's attributes followed every beat shown from the cue on, each equal to bar:beat.
  const { moves } = await page.evaluate(() => window.__tutti.score());
  const played = moves.filter((m) => m.playing && beats.has(m.index));
  expect(played.length).toBeGreaterThan(30);
  for (const m of played) expect([m.index, m.bar, m.beat]).toEqual([m.index, beats.get(m.index).bar, beats.get(m.index).beat]);
  const indexes = played.map((m) => m.index);
  expect(indexes).toEqual([...new Set(indexes)].sort((a, b) => a - b));
  const cursorLog = await page.evaluate(() => window.__cursor);
  const whole = cursorLog.filter(
    (c, i) => i + 1 === cursorLog.length || cursorLog[i + 1].bar !== c.bar || cursorLog[i + 1].beat !== c.beat,
  );
  expect(whole.filter((c) => Number(c.bar) >= 3).length).toBeGreaterThan(30);
  for (const c of whole.filter((x) => Number(x.bar) >= 3)) expect(`${c.bar}:${c.beat}`).toBe(c.shown);
  // Taken down by the cue at bar 22; its text stays.
  expect(await page.evaluate(() => document.getElementById('music').hidden)).toBe(true);
  expect(await page.evaluate(() => document.getElementById('text').textContent)).toBe('Thank you');
  expect(problems).toEqual([]);
  await page.close();
}, 150_000);

test('a part not there yet: one line says so, the phone asks again and shows it (503, then 404, then the map)', async () => {
  const { show } = song;
  await control(show, 'POST', '/api/transport', { action: 'seek', bar: 5 });
  const { page, problems } = await openPage(browser, { deviceScaleFactor: 1 });
  const answers = [];
  // The venue while engraving (503 + Retry-After), then the edge before the upload (404), then the real map.
  await page.route('**/media/notation/piano/phone.json', async (route) => {
    answers.push(Date.now());
    if (answers.length === 1)
      return route.fulfill({
        status: 503,
        headers: { 'retry-after': '1' },
        contentType: 'application/json',
        body: '{"error":"NOTATION_ENGRAVING"}',
      });
    if (answers.length === 2) return route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"NOT_FOUND"}' });
    return route.continue();
  });
  await page.goto(`${show.audienceUrl}/`);
  await waitInPage(page, () => /being engraved/.test(document.getElementById('notation-note').textContent));
  expect(await page.evaluate(() => document.getElementById('notation-note').textContent)).toBe('The notation is being engraved…');
  await waitInPage(page, () => window.__tutti.score().loaded, undefined, 20_000);
  expect(answers).toHaveLength(3);
  expect(answers[1] - answers[0]).toBeGreaterThanOrEqual(900); // Retry-After honoured
  await waitInPage(page, () => !document.getElementById('cursor').hidden && document.getElementById('cursor').dataset.cursorBar === '5');
  expect(await page.evaluate(() => document.getElementById('notation-note').textContent)).toMatch(/Verovio/);
  expect(problems.filter((p) => !/status of (503|404)/.test(p))).toEqual([]);
  await page.close();
}, 60_000);
