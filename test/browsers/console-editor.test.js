// The console's score editor in Firefox ESR and WebKitGTK (Safari's engine), as the composer's
// own browser would run it (test/app/console-editor.test.js covers Chromium, the desktop app's
// engine): a text added at a printed bar shows in the phone preview (and the place in the part-page
// preview), the validator's sentence
// appears at the cue, a delete is undone and redone, Save writes the file through the real
// route (SPEC §11), and, played, a phone in the same engine shows the text from that beat on. Screenshots: artifacts/browsers/.

import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineCanRun, launchEngine, waitInPage } from './support/engines.js';
import { typeInto } from './support/type-into.js';
import { startShow } from '../support/show.js';
import { writeEditorScore } from '../support/editor-score.js';
import { waitFor } from '../support/clients.js';

const ARTIFACTS = fileURLToPath(new URL('../../artifacts/browsers/', import.meta.url));
const ENGINES = /** @type {const} */ (['firefox', 'webkit']);
const TEXT = 'Lights up, row B';

/** The number of cue chips in the lanes. */
const chipCount = () => document.querySelectorAll('[data-testid=cue-chip]').length;

describe.each(ENGINES)('%s', (name) => {
  if (!engineCanRun(name)) return;
  let page;
  let show;
  let score;
  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    score = writeEditorScore();
    [show, page] = await Promise.all([startShow({ autoplay: false, scorePath: score.path }), launchEngine(name, { laptop: true })]);
    await page.goto(`${show.controlUrl}/?token=test-token`);
    await waitInPage(page, () => document.getElementById('conn-badge')?.textContent === 'Live', undefined, 15_000, 'Live');
    await page.click('[data-testid=edit-toggle]');
    await waitInPage(page, chipCount, undefined, 15_000, 'the lanes');
  }, 90_000);
  afterAll(async () => {
    await page?.close();
    await show?.close();
    if (score) await rm(score.dir, { recursive: true, force: true });
  });

  test('a text at printed bar 2 (second time) shows in the phone preview at bar 6 beat 3', async () => {
    await typeInto(page, '[data-testid=ed-at-printed]', '2, 2');
    await typeInto(page, '[data-testid=ed-at-beat]', '3');
    await page.click('#ed-cursor-form button[type=submit]');
    await page.click('[data-testid=add-text]');
    await typeInto(page, '[data-testid="field-view.text"]', TEXT);
    const shown = await waitInPage(
      page,
      (text) => {
        const doc = /** @type {HTMLIFrameElement} */ (document.querySelector('[data-testid=phone-preview]')).contentDocument;
        const read = (id) => doc?.getElementById(id)?.textContent;
        return read('text') === text && [read('text'), read('bar'), read('beat')];
      },
      TEXT,
      15_000,
      'the preview',
    );
    expect(shown).toEqual([TEXT, '6', '3']);
    // The part-page preview, drawn by the part page's own code: printed bar 2 (running bar 6), beat 3.
    const part = await waitInPage(
      page,
      () => {
        const doc = /** @type {HTMLIFrameElement} */ (document.querySelector('[data-testid=part-preview]')).contentDocument;
        const read = (id) => doc?.getElementById(id)?.textContent;
        return doc?.body.dataset.previewBar === '6' && [read('bar'), read('beat'), read('printed-bar')];
      },
      undefined,
      15_000,
      'the part preview',
    );
    expect(part).toEqual(['2', '3', '2nd time · running bar 6']);
    await page.screenshot(join(ARTIFACTS, `${name}-console-editor.png`));
  }, 60_000);

  test('the validator sentence at the cue; a delete undone and redone', async () => {
    await typeInto(page, '[data-testid="field-view.color"]', '#12');
    const problem = await waitInPage(page, () => document.querySelector('[data-testid=cue-problem]:not([hidden])')?.textContent);
    expect(problem).toMatch(/^cues\[1\]\.view\.color: expected a colour written #rgb or #rrggbb/);
    await typeInto(page, '[data-testid="field-view.color"]', '');
    await waitInPage(page, () => document.querySelector('[data-testid=cue-problem]')?.hidden);
    const n = await page.evaluate(chipCount);
    await page.click('[data-testid=cue-delete]');
    await waitInPage(page, (k) => document.querySelectorAll('[data-testid=cue-chip]').length === k, n - 1);
    await page.click('[data-testid=ed-undo]');
    await waitInPage(page, (k) => document.querySelectorAll('[data-testid=cue-chip]').length === k, n);
    await page.click('[data-testid=ed-redo]');
    await waitInPage(page, (k) => document.querySelectorAll('[data-testid=cue-chip]').length === k, n - 1);
    await page.click('[data-testid=ed-undo]');
    await waitInPage(page, (k) => document.querySelectorAll('[data-testid=cue-chip]').length === k, n);
  }, 60_000);

  test('Save writes the file', async () => {
    await page.click('[data-testid=ed-save]');
    await waitFor(async () => JSON.parse(await readFile(score.path, 'utf8')).cues.length === 2, 10_000, 'the saved file');
    expect(JSON.parse(await readFile(score.path, 'utf8')).cues[1]).toEqual({ at: { bar: 6, beat: 3 }, view: { text: TEXT } });
  }, 60_000);

  test('played, a phone in the same engine shows the text from bar 6 beat 3 on', async () => {
    const transport = (action) =>
      fetch(`${show.controlUrl}/api/transport`, {
        method: 'POST',
        headers: { authorization: 'Bearer test-token', 'content-type': 'application/json' },
        body: JSON.stringify({ action }),
      });
    const phone = await launchEngine(name);
    try {
      // The audience page, recording every change it draws.
      await phone.goto(`http://127.0.0.1:${new URL(show.audienceUrl).port}/`);
      await waitInPage(phone, () => /** @type {any} */ (window).__tutti?.connection().live, undefined, 15_000, 'the live phone');
      await phone.evaluate(() => {
        const seen = /** @type {string[][]} */ ([]);
        /** @type {any} */ (window).seen = seen;
        const read = () => ['bar', 'beat', 'text'].map((id) => document.getElementById(id)?.textContent ?? '');
        new MutationObserver(() => seen.push(read())).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      expect((await transport('play')).status).toBe(200);
      const seen = await waitInPage(
        phone,
        (text) => {
          const all = /** @type {any} */ (window).seen;
          return all.some((s) => s[2] === text) && all;
        },
        TEXT,
        20_000,
        'the text on the phone',
      );
      const first = seen.findIndex((s) => s[2] === TEXT);
      expect(seen[first].slice(0, 2)).toEqual(['6', '3']);
      expect(seen.slice(0, first).some((s) => s[0] === '6' && s[1] === '2')).toBe(true); // not there a beat before
    } finally {
      await transport('stop');
      await phone.close();
    }
  }, 90_000);
});
