// The console's score editor in real Chromium against a real show server and its real score
// routes (SPEC §11): a composer opens Edit, puts the cursor on a printed bar, adds a text, sees
// it in the phone preview (drawn by the audience page's own view code), meets the validator's
// sentence at the cue (the same line `tutti validate` prints), undoes and redoes, saves to the
// file, plays, and a real audience page shows the text from that beat on. axe checks the view.

import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openConsolePage, CONSOLE_SHOTS } from '../support/console-page.js';
import { editorScore, writeEditorScore } from '../support/editor-score.js';
import { waitFor } from '../support/clients.js';
import { TUTTI_BIN } from '../support/serve-process.js';
import { PHONE } from '../audience/support/browser.js';
import { AXE_TAGS, describeViolations } from '../audience/support/axe.js';
import { BEAT_PX } from '../../web/console/editor/lane-view.js';

const require = createRequire(import.meta.url);

const TOKEN = 'editor-test-token';
const CLI = TUTTI_BIN;
const TEXT = 'Lights up, row B';
let ctx;
let page;
let score;

beforeAll(async () => {
  score = writeEditorScore();
  ctx = await openConsolePage({ token: TOKEN, viewport: { width: 1500, height: 1000 }, server: { scorePath: score.path } });
  page = ctx.page;
  await page.goto(ctx.consoleUrl);
  await page.waitForFunction(() => document.getElementById('conn-badge')?.textContent === 'Live');
  await page.click('[data-testid=edit-toggle]');
  await page.waitForSelector('[data-testid=cue-chip]');
}, 180_000);

afterAll(async () => {
  await ctx?.close();
  if (score) rmSync(score.dir, { recursive: true, force: true });
});

/** The phone preview's frame (the audience page's markup and view code, inside the console). */
const phone = () => page.frames().find((f) => f.url().includes('/console/editor/phone.html'));
/** What the preview phone shows: text, bar, beat. */
const phoneShows = () =>
  phone().evaluate(() =>
    ['text', 'bar', 'beat'].map((id) => (document.getElementById(id)?.hidden ? '' : document.getElementById(id)?.textContent)),
  );
const phoneText = (text) => phone().waitForFunction((t) => document.getElementById('text')?.textContent === t, text, { timeout: 5000 });
const chips = () => page.$$eval('[data-testid=cue-chip]', (els) => els.map((e) => e.textContent));

test('a text added at a printed bar shows in the phone preview there, not a beat before', async () => {
  await page.fill('[data-testid=ed-at-printed]', '2, 2'); // printed bar 2, second time = bar 6
  await page.fill('[data-testid=ed-at-beat]', '3');
  await page.click('#ed-cursor-form button[type=submit]');
  expect(await page.inputValue('[data-testid=ed-at-bar]')).toBe('6');
  await page.click('[data-testid=add-text]');
  await page.fill('[data-testid="field-view.text"]', TEXT);
  await page.waitForFunction(
    (t) => (document.querySelector('[data-testid=cue-chip][aria-pressed=true]')?.textContent ?? '').includes(t.slice(0, 10)),
    TEXT,
  );
  await phoneText(TEXT);
  expect(await phoneShows()).toEqual([TEXT, '6', '3']);
  // One beat earlier the phone still shows the score's opening view.
  await page.fill('[data-testid=ed-at-beat]', '2');
  await page.click('#ed-cursor-form button[type=submit]');
  await phoneText('Welcome');
  expect(await phoneShows()).toEqual(['Welcome', '6', '2']);
  await page.screenshot({ path: join(CONSOLE_SHOTS, 'editor-preview.png') });
}, 60_000);

test('a mistake is shown at the cue in the very words `tutti validate` prints', async () => {
  await page.fill('[data-testid="field-view.color"]', '#12');
  await page.waitForSelector('[data-testid=cue-problem]:not([hidden])');
  const shown = await page.textContent('[data-testid=cue-problem]');
  expect(await page.getAttribute('[data-testid=cue-chip][aria-pressed=true]', 'class')).toMatch(/ed-bad/);
  // The same document through the CLI: its line for this cue is the one on screen.
  const doc = editorScore();
  doc.cues.push({ at: { bar: 6, beat: 3 }, view: { text: TEXT, color: '#12' } }); // what the composer made, as JSON
  const file = join(score.dir, 'typed.score.json');
  writeFileSync(file, JSON.stringify(doc));
  const cli = await promisify(execFile)(process.execPath, [CLI, 'validate', file]).catch((e) => e);
  expect(cli.code).not.toBe(0);
  expect(`${cli.stdout}${cli.stderr}`).toContain(shown);
  expect(shown).toMatch(/^cues\[1\]\.view\.color: /);
  await page.fill('[data-testid="field-view.color"]', '');
  await page.waitForSelector('[data-testid=cue-problem]', { state: 'hidden' });
}, 60_000);

test('undo and redo: keys and buttons, for a delete and for typing', async () => {
  const before = await chips();
  expect(before.some((c) => c.includes('Lights up'))).toBe(true);
  await page.focus('[data-testid=cue-chip][aria-pressed=true]');
  await page.keyboard.press('Delete');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=cue-chip]').length === n, before.length - 1);
  await page.keyboard.press('Control+z');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=cue-chip]').length === n, before.length);
  await page.keyboard.press('Control+Shift+z');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=cue-chip]').length === n, before.length - 1);
  await page.click('[data-testid=ed-undo]');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=cue-chip]').length === n, before.length);
  expect(await chips()).toEqual(before);
  // Typing is one step: undo brings the text back as it was before the word was typed.
  await page.click('[data-testid=cue-chip]:has-text("Lights up")');
  await page.fill('[data-testid="field-view.text"]', 'Oops');
  await page.click('[data-testid=ed-undo]');
  await page.waitForFunction(
    (t) => /** @type {HTMLInputElement} */ (document.querySelector('[data-testid="field-view.text"]'))?.value === t,
    TEXT,
  );
  await page.click('[data-testid=ed-redo]');
  await page.waitForFunction(
    () => /** @type {HTMLInputElement} */ (document.querySelector('[data-testid="field-view.text"]'))?.value === 'Oops',
  );
  await page.click('[data-testid=ed-undo]');
  await page.waitForFunction(
    (t) => /** @type {HTMLInputElement} */ (document.querySelector('[data-testid="field-view.text"]'))?.value === t,
    TEXT,
  );
}, 60_000);

test('move: to the cursor put on a printed bar, by keys, by drag; and back with undo', async () => {
  const listen = '[data-ref="cues:0"]'; // the score's own cue: “Listen” at bar 3
  const where = () => page.getAttribute(listen, 'aria-label');
  await page.click(listen);
  await page.fill('[data-testid=ed-at-printed]', '5'); // printed 5 = bar 9, after the repeat
  await page.fill('[data-testid=ed-at-beat]', '1');
  await page.click('#ed-cursor-form button[type=submit]');
  await page.click('[data-testid=cue-move-here]');
  await page.waitForFunction((sel) => /at bar 9 beat 1,/.test(document.querySelector(sel)?.getAttribute('aria-label') ?? ''), listen);
  await page.focus(listen);
  await page.keyboard.press('Alt+ArrowRight');
  expect(await where()).toMatch(/at bar 9 beat 2, printed 5/);
  await page.keyboard.press('Alt+Shift+ArrowLeft');
  expect(await where()).toMatch(/at bar 8 beat 2, printed 4 \(2nd time\)/);
  const box = await (await page.$(listen)).boundingBox();
  await page.mouse.move(box.x + 8, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 8 + 20, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + 8 + 2 * BEAT_PX, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction((sel) => /at bar 8 beat 4,/.test(document.querySelector(sel)?.getAttribute('aria-label') ?? ''), listen);
  for (let i = 0; i < 4; i += 1) await page.click('[data-testid=ed-undo]');
  await page.waitForFunction((sel) => /at bar 3 beat 1,/.test(document.querySelector(sel)?.getAttribute('aria-label') ?? ''), listen);
}, 60_000);

test('the Edit view passes axe (WCAG 2.2 A and AA, best practices)', async () => {
  // The console's palette is held to AA (4.5:1); the audience page's own suite holds it to AAA.
  const tags = AXE_TAGS.filter((t) => t !== 'wcag2aaa');
  await page.evaluate(await readFile(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(
    (only) =>
      /** @type {any} */ (window).axe
        .run('#editor', { runOnly: { type: 'tag', values: only }, resultTypes: ['violations'] })
        .then((r) =>
          r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })),
        ),
    tags,
  );
  expect(describeViolations(violations)).toEqual([]);
}, 60_000);

test('saved to the file, played, and a phone shows the text from that beat on', async () => {
  await page.click('[data-testid=ed-save]');
  await page.waitForFunction(() => document.querySelector('[data-testid=ed-status]')?.textContent?.startsWith('Saved'));
  const written = JSON.parse(readFileSync(score.path, 'utf8'));
  expect(written.cues).toContainEqual({ at: { bar: 6, beat: 3 }, view: { text: TEXT } });
  expect(written.printedBars).toHaveLength(3); // the rest of the file as it was

  const phonePage = await ctx.browser.newPage(PHONE);
  try {
    await phonePage.goto(`${ctx.server.audienceUrl}/`);
    await phonePage.waitForFunction(() => /** @type {any} */ (window).__tutti?.connection().live, undefined, { timeout: 15_000 });
    // Every change the phone shows: bar, beat and text together.
    await phonePage.evaluate(() => {
      const seen = /** @type {string[][]} */ ([]);
      /** @type {any} */ (window).seen = seen;
      const read = () => ['bar', 'beat', 'text'].map((id) => document.getElementById(id)?.textContent ?? '');
      new MutationObserver(() => seen.push(read())).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const res = await fetch(`${ctx.server.controlUrl}/api/transport`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'play' }),
    });
    expect(res.status).toBe(200);
    await phonePage.waitForFunction((t) => document.getElementById('text')?.textContent === t, TEXT, { timeout: 20_000 });
    const seen = await phonePage.evaluate(() => /** @type {any} */ (window).seen);
    const first = seen.findIndex((s) => s[2] === TEXT);
    expect(seen[first].slice(0, 2)).toEqual(['6', '3']);
    expect(seen.slice(0, first).some((s) => s[0] === '6' && s[1] === '2')).toBe(true); // it was not there a beat before
    await phonePage.screenshot({ path: join(CONSOLE_SHOTS, 'editor-phone.png') });
  } finally {
    await phonePage.close();
    await fetch(`${ctx.server.controlUrl}/api/transport`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'stop' }),
    });
  }
  await waitFor(() => ctx.server.status().transport === 'stopped', 5000, 'stopped');
  expect(ctx.pageErrors).toEqual([]);
}, 90_000);

test('"Rehearse from here" starts the show at the cursor after a bar of count-in', async () => {
  await page.fill('[data-testid=ed-at-bar]', '9');
  await page.fill('[data-testid=ed-at-beat]', '1');
  await page.click('#ed-cursor-form button[type=submit]');
  await page.click('[data-testid=ed-rehearse]');
  await waitFor(() => ctx.server.status().transport === 'playing', 10_000, 'playing after the count-in');
  const { bar } = ctx.server.status().position;
  expect(bar).toBeGreaterThanOrEqual(9);
  expect(bar).toBeLessThanOrEqual(10);
  await fetch(`${ctx.server.controlUrl}/api/transport`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'stop' }),
  });
}, 60_000);

/** Post a transport action as a script would. */
const transport = (action) =>
  fetch(`${ctx.server.controlUrl}/api/transport`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ action }),
  });
const onDisk = () => JSON.parse(readFileSync(score.path, 'utf8'));
/** Add a text cue at bar `bar` through the editor (cursor, Add, type). */
async function addText(bar, text) {
  await page.fill('[data-testid=ed-at-bar]', String(bar));
  await page.fill('[data-testid=ed-at-beat]', '1');
  await page.click('#ed-cursor-form button[type=submit]');
  await page.click('[data-testid=add-text]');
  await page.fill('[data-testid="field-view.text"]', text);
}

test('an invalid score is not saved: the problem stays at its cue and the file is untouched', async () => {
  await waitFor(() => ctx.server.status().transport === 'stopped', 5000, 'stopped');
  const before = readFileSync(score.path, 'utf8');
  await addText(4, 'Broken');
  await page.fill('[data-testid="field-view.color"]', 'red');
  await page.click('[data-testid=ed-save]');
  await page.waitForFunction(() => /Not saved: 1 problem/.test(document.querySelector('[data-testid=ed-message]')?.textContent ?? ''));
  expect(await page.textContent('[data-testid=cue-problem]')).toMatch(/^cues\[2\]\.view\.color: /);
  expect(readFileSync(score.path, 'utf8')).toBe(before);
  await page.fill('[data-testid="field-view.color"]', '');
}, 60_000);

test('a file changed on disk meanwhile: overwrite it, or reload it', async () => {
  // Another editor adds a cue to the file while this one has an unsaved edit (bar 4's text).
  const other = onDisk();
  other.cues.push({ at: { bar: 11 }, view: { text: 'From VS Code' } });
  writeFileSync(score.path, `${JSON.stringify(other, null, 2)}\n`);
  await page.click('[data-testid=ed-save]');
  await page.waitForFunction(() => /changed on disk/.test(document.querySelector('[data-testid=ed-message]')?.textContent ?? ''));
  expect(onDisk().cues.map((c) => c.view?.text ?? c.view?.instruction)).toContain('From VS Code'); // untouched
  await page.click('[data-testid=ed-message] button:has-text("Overwrite")');
  await page.waitForFunction(() => document.querySelector('[data-testid=ed-status]')?.textContent?.startsWith('Saved'));
  expect(onDisk().cues.map((c) => c.view?.text ?? c.view?.instruction)).toEqual(['Listen', TEXT, 'Broken']);

  other.cues = [...onDisk().cues, { at: { bar: 12 }, view: { text: 'From git pull' } }];
  writeFileSync(score.path, `${JSON.stringify({ ...onDisk(), cues: other.cues }, null, 2)}\n`);
  await addText(5, 'Dropped on reload');
  await page.click('[data-testid=ed-save]');
  await page.waitForFunction(() => /changed on disk/.test(document.querySelector('[data-testid=ed-message]')?.textContent ?? ''));
  await page.click('[data-testid=ed-message] button:has-text("Reload")');
  await page.waitForFunction(() => /Reloaded/.test(document.querySelector('[data-testid=ed-message]')?.textContent ?? ''));
  const shown = await chips();
  expect(shown.some((c) => c.includes('From git pull'))).toBe(true);
  expect(shown.some((c) => c.includes('Dropped on reload'))).toBe(false);
}, 60_000);

test('while the show plays a save waits for "Apply now", which keeps the show where it is', async () => {
  expect((await transport('play')).status).toBe(200);
  await waitFor(() => ctx.server.status().transport === 'playing', 5000, 'playing');
  // A second console, its editor open on the file as it was.
  const other = await ctx.browser.newPage({ viewport: { width: 1500, height: 1000 } });
  await other.goto(ctx.consoleUrl);
  await other.waitForFunction(() => document.getElementById('conn-badge')?.textContent === 'Live');
  await other.click('[data-testid=edit-toggle]');
  await other.waitForSelector('[data-testid=cue-chip]');
  await addText(12, 'Applied live');
  await page.click('[data-testid=ed-save]');
  await page.waitForFunction(() => /The show is playing/.test(document.querySelector('[data-testid=ed-message]')?.textContent ?? ''));
  expect(onDisk().cues.some((c) => c.view?.text === 'Applied live')).toBe(false);
  const epoch = ctx.server.status().epoch;
  await page.click('[data-testid=ed-message] button:has-text("Apply now")');
  await page.waitForFunction(() =>
    /applied to the running show/.test(document.querySelector('[data-testid=ed-message]')?.textContent ?? ''),
  );
  expect(onDisk().cues.some((c) => c.view?.text === 'Applied live')).toBe(true);
  expect(ctx.server.status()).toMatchObject({ transport: 'playing', epoch });
  // The other console is told: its editor shows the applied cue, and this one keeps its history.
  await other.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=cue-chip]')].some((c) => c.textContent?.includes('Applied live')),
  );
  expect(await other.textContent('[data-testid=ed-message]')).toMatch(/changed from another console/);
  await other.close();
  expect(await page.textContent('[data-testid=ed-message]')).toMatch(/applied to the running show/);
  expect(await page.isEnabled('[data-testid=ed-undo]')).toBe(true);
  await transport('stop');
  await waitFor(() => ctx.server.status().transport === 'stopped', 5000, 'stopped');
}, 60_000);

test('an image added with the file button is stored and becomes the selected cue’s image', async () => {
  await page.click('[data-testid=cue-chip]:has-text("Applied live")');
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
  await page.setInputFiles('#ed-media-file', { name: 'stage light.png', mimeType: 'image/png', buffer: png });
  await page.waitForFunction(() => /Added stage light.png/.test(document.querySelector('[data-testid=ed-message]')?.textContent ?? ''));
  expect(await page.inputValue('[data-testid="field-view.image"]')).toBe('stage-light');
  await page.click('[data-testid=ed-save]');
  await page.waitForFunction(() => document.querySelector('[data-testid=ed-status]')?.textContent?.startsWith('Saved'));
  const saved = onDisk();
  expect(saved.assets).toEqual([{ id: 'stage-light', kind: 'image', src: 'media/editor-test/stage-light.png', bytes: png.length }]);
  expect(saved.cues.find((c) => c.view?.text === 'Applied live').view.image).toBe('stage-light');
  expect(readFileSync(join(score.dir, saved.assets[0].src))).toEqual(png);
  // The preview draws it, loaded from the console's own origin (local-server/src/console/console-score-media.js).
  await phone().waitForFunction(() => {
    const img = /** @type {HTMLImageElement} */ (document.getElementById('image'));
    return !img.hidden && img.complete && img.naturalWidth === 1;
  });
  // The refusals above (400 problems, 409 conflicts) are the only failed requests the page saw.
  expect(ctx.pageErrors.filter((e) => !/status of (400|409) /.test(e))).toEqual([]);
}, 60_000);
