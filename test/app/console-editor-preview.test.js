// The console editor's previews beyond the phone, in real Chromium against a real show server
// playing a lead sheet imported from MusicXML (48 bars, so it names its notation): the part-page
// preview drawn by the part page's own code (bar:beat, countdown, cue text, the engraved part with
// its cursor), the engraved score a view cue shows in the phone preview, the engraved measures in
// the timeline (drawn only for the bars in view), the sounds at the cursor with a Play button, and
// the console's notation route behind the part key.

import path from 'node:path';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { CONSOLE_SHOTS, openConsolePage } from '../support/console-page.js';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { CORPUS_XML, importInto, tempFolder } from '../support/notation-server.js';
import { AXE_TAGS, describeViolations } from '../audience/support/axe.js';

const require = createRequire(import.meta.url);

const TOKEN = 'editor-preview-test-token';
const CUE = 'Solo from here';
let ctx;
let folder;

/** A 0.1 s silent mono WAV (16-bit, 8 kHz): a sound the browser can decode and play. */
function silentWav() {
  const samples = 800;
  const b = Buffer.alloc(44 + samples * 2);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + samples * 2, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(16000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(samples * 2, 40);
  return b;
}

beforeAll(async () => {
  folder = await tempFolder();
  const { scorePath } = await importInto(path.join(CORPUS_XML, 'test_rehearsal_marks_bolivia.musicxml'), folder.dir);
  // The composer's cues on the imported piece: a cue for the lead sheet's player, and a sound.
  const score = JSON.parse(readFileSync(scorePath, 'utf8'));
  const part = score.parts[0].id;
  mkdirSync(path.join(folder.dir, 'media'), { recursive: true });
  writeFileSync(path.join(folder.dir, 'media', 'bell.wav'), silentWav());
  score.assets = [...(score.assets ?? []), { id: 'bell', kind: 'audio', src: 'media/bell.wav' }];
  score.cues = [
    { at: { bar: 3 }, audio: { asset: 'bell' } },
    { at: { bar: 5 }, label: CUE, osc: { part, address: '/solo', args: [] } },
    { at: { bar: 7 }, view: { text: 'Follow the score', score: 'all' } },
  ];
  writeFileSync(scorePath, `${JSON.stringify(score, null, 2)}\n`);
  ctx = await openConsolePage({
    token: TOKEN,
    viewport: { width: 1500, height: 1300 },
    server: { scorePath, notationCacheDir: path.join(folder.dir, 'cache') },
  });
  await ctx.page.goto(ctx.consoleUrl);
  await ctx.page.waitForFunction(() => document.getElementById('conn-badge')?.textContent === 'Live');
  await ctx.page.click('[data-testid=edit-toggle]');
  await ctx.page.waitForSelector('[data-testid=cue-chip]');
}, 180_000);

afterAll(async () => {
  await ctx?.close();
  await folder?.close();
});

const cursorTo = async (bar, beat) => {
  await ctx.page.fill('[data-testid=ed-at-bar]', String(bar));
  await ctx.page.fill('[data-testid=ed-at-beat]', String(beat));
  await ctx.page.click('#ed-cursor-form button[type=submit]');
};
/** The part-page preview's frame: the part page's markup and view code, inside the console. */
const tablet = () => ctx.page.frames().find((f) => f.url().includes('/console/editor/part.html'));
const tabletShows = () =>
  tablet().evaluate(() => ['part-name', 'bar', 'beat', 'countdown', 'cue-text'].map((id) => document.getElementById(id)?.textContent));

test('the part preview shows the picked part at the cursor: bar:beat, countdown, cue, the engraved part and its cursor', async () => {
  await cursorTo(4, 1);
  await tablet().waitForFunction(() => document.body.dataset.previewBar === '4');
  expect(await tabletShows()).toEqual(['Lead sheet', '4', '1', '4', CUE]);
  await cursorTo(5, 1);
  await tablet().waitForFunction(() => document.getElementById('countdown')?.textContent === 'Now');
  // The engraved part (being engraved first: 503, asked again) with its cursor on the bar.
  await tablet().waitForFunction(
    () => {
      const cursor = document.getElementById('cursor');
      return /** @type {any} */ (window).tuttiPart.notation().loaded && cursor && !cursor.hidden && cursor.dataset.cursorBar === '5';
    },
    undefined,
    { timeout: 120_000, polling: 250 },
  );
  const img = await tablet().$eval('.slot:not([hidden]) img', (el) => ({ src: el.src.slice(0, 19), w: el.naturalWidth }));
  expect(img.src).toBe('data:image/svg+xml;');
  expect(img.w).toBeGreaterThan(0);
  await ctx.page.screenshot({ path: path.join(CONSOLE_SHOTS, 'editor-part-preview.png') });
  // "All parts" follows every cue, under its own title.
  await ctx.page.selectOption('[data-testid=ed-part-pick]', '*');
  await tablet().waitForFunction(() => document.body.dataset.previewPart === '*');
  expect((await tabletShows())[0]).toBe('All parts');
}, 180_000);

/** The phone preview's frame: the audience page's markup and view code, inside the console. */
const phone = () => ctx.page.frames().find((f) => f.url().includes('/console/editor/phone.html'));

test('the phone preview shows the engraved score a view cue shows, its cursor at the editor’s cursor, and not before that cue', async () => {
  await cursorTo(8, 2);
  await phone().waitForFunction(
    () => {
      const cursor = document.getElementById('cursor');
      return document.getElementById('music')?.hidden === false && cursor && !cursor.hidden && cursor.dataset.cursorBar === '8';
    },
    undefined,
    { timeout: 120_000, polling: 250 },
  );
  expect(await phone().$eval('#cursor', (el) => el.dataset.cursorBeat)).toBe('2');
  expect(await phone().$eval('#text', (el) => el.textContent)).toBe('Follow the score');
  // The phone layout's page, as the audience gets it (a data: URL of the SVG, drawn).
  const img = await phone().$eval('#music .slot:not([hidden]) img', (el) => ({ src: el.src.slice(0, 19), w: el.naturalWidth }));
  expect(img.src).toBe('data:image/svg+xml;');
  expect(img.w).toBeGreaterThan(0);
  await ctx.page.screenshot({ path: path.join(CONSOLE_SHOTS, 'editor-phone-score.png') });
  await cursorTo(6, 1); // before the view cue: no score on the phone
  await phone().waitForFunction(() => document.getElementById('music')?.hidden === true);
}, 180_000);

test('the timeline draws each bar’s engraved measure, only for the bars in view', async () => {
  const painted = () =>
    ctx.page.$$eval('.ed-notation [data-painted]', (els) => els.map((e) => Number(/** @type {HTMLElement} */ (e).dataset.bar)));
  await ctx.page.waitForFunction(() => document.querySelectorAll('.ed-notation [data-painted] img').length > 0, undefined, {
    timeout: 120_000,
  });
  await ctx.page.evaluate(() => (document.getElementById('ed-timeline').scrollLeft = 0));
  await ctx.page.waitForFunction(() => document.querySelector('.ed-notation [data-bar="1"][data-painted]'));
  const first = await painted();
  expect(first).toContain(1);
  expect(first).not.toContain(48); // 48 bars of 4/4 are wider than the timeline: the last is out of view
  const crop = await ctx.page.$eval('.ed-notation [data-bar="1"] img', (el) => /** @type {HTMLImageElement} */ (el).naturalWidth);
  expect(crop).toBeGreaterThan(0);
  await ctx.page.screenshot({ path: path.join(CONSOLE_SHOTS, 'editor-notation.png') });
  await ctx.page.evaluate(() => {
    const t = document.getElementById('ed-timeline');
    t.scrollLeft = t.scrollWidth;
  });
  await ctx.page.waitForFunction(() => document.querySelector('.ed-notation [data-bar="48"][data-painted] img'));
}, 150_000);

test('the sounds at the cursor are listed under the phone, and play only when asked', async () => {
  await cursorTo(3, 1);
  const listed = () => ctx.page.$$eval('[data-testid=preview-sounds] li', (els) => els.map((e) => e.textContent));
  await ctx.page.waitForFunction(() => document.querySelectorAll('[data-testid=preview-sounds] li').length === 1);
  expect(await listed()).toEqual(['▶ bell on this beat']);
  expect(await ctx.page.$eval('#ed-preview-sounds', (el) => el.dataset.played ?? null)).toBeNull(); // no autoplay
  await cursorTo(4, 2);
  await ctx.page.waitForFunction(() =>
    /started at bar 3 beat 1/.test(document.querySelector('[data-testid=preview-sounds]')?.textContent ?? ''),
  );
  await ctx.page.click('[data-testid=preview-sounds] button');
  await ctx.page.waitForFunction(() => document.getElementById('ed-preview-sounds')?.dataset.played === 'bell');
  expect(await ctx.page.$eval('#ed-preview-sounds', (el) => el.dataset.playError ?? null)).toBeNull();
  // With the notation, the part preview and a sound on screen, the Edit view still passes axe (AA, as the console).
  await ctx.page.evaluate(await readFile(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await ctx.page.evaluate(
    (only) =>
      /** @type {any} */ (window).axe
        .run('#editor', { runOnly: { type: 'tag', values: only }, resultTypes: ['violations'] })
        .then((r) =>
          r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })),
        ),
    AXE_TAGS.filter((t) => t !== 'wcag2aaa'),
  );
  expect(describeViolations(violations)).toEqual([]);
  await cursorTo(2, 1);
  await ctx.page.waitForFunction(() => document.querySelector('[data-testid=preview-sounds]')?.hidden === true);
  // The only failed loads: 503 while the pages were being engraved (asked again after Retry-After).
  expect(ctx.pageErrors.filter((e) => !/status of 503 /.test(e))).toEqual([]);
}, 60_000);

test('the console’s notation route answers behind the part key only, as the part pages’ does', async () => {
  const metric = async () => {
    const res = await fetch(`${ctx.server.controlUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    return Number(/tutti_bad_input_total\{source="part_key"\} (\d+)/.exec(await res.text())?.[1] ?? 0);
  };
  const key = ctx.server.partKey;
  const mine = await fetch(`${ctx.server.controlUrl}/console/part/${key}/notation/all.json?layout=tablet-landscape`);
  const theirs = await fetch(`${ctx.server.audienceUrl}/part/${key}/notation/all.json?layout=tablet-landscape`);
  expect(mine.status).toBe(200);
  expect(await mine.text()).toBe(await theirs.text());
  const before = await metric();
  const wrong = key.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
  expect((await fetch(`${ctx.server.controlUrl}/console/part/${wrong}/notation/all.json`)).status).toBe(403);
  expect((await fetch(`${ctx.server.controlUrl}/console/part//notation/all.json`)).status).toBe(403);
  expect(await metric()).toBe(before + 2);
  expect((await fetch(`${ctx.server.controlUrl}/console/part/${key}/parts.json`)).status).toBe(404); // only the notation
  expect((await fetch(`${ctx.server.controlUrl}/console/part/${key}/notation/..%2F..%2Fx.json`)).status).toBe(400);
}, 30_000);
