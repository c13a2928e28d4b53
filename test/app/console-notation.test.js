// The engraving's progress on the console's score card (docs/reference/notation.md#progress), in
// real Chromium against a real show server: a score imported from MusicXML says its pages are
// being engraved, then engraved; a notation file Verovio cannot read says why, in one sentence,
// while the show still plays. Screenshot: artifacts/console/console-notation.png.

import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { CONSOLE_SHOTS, openConsolePage } from '../support/console-page.js';
import { CORPUS_XML, importInto, tempFolder } from '../support/notation-server.js';

const TOKEN = 'console-notation-test-token';

/** The score card's notation line once `done` holds for it. */
const notationLine = async (page, pattern) =>
  (
    await page.waitForFunction(
      (source) => {
        const el = document.querySelector('[data-testid=score-notation]');
        return el && !el.hidden && new RegExp(source).test(el.textContent ?? '') ? el.textContent : null;
      },
      pattern.source,
      { timeout: 90_000, polling: 100 },
    )
  ).jsonValue();

/** A console on a server playing the volta piece imported into a fresh folder; `edit` may spoil its notation first. */
async function consoleWithImport(edit = async () => {}) {
  const folder = await tempFolder();
  const { scorePath, notation } = await importInto(path.join(CORPUS_XML, 'test_repeat_volta_simple.musicxml'), folder.dir);
  await edit(notation);
  const run = await openConsolePage({
    token: TOKEN,
    viewport: { width: 1440, height: 1000 },
    server: { scorePath, notationCacheDir: path.join(folder.dir, 'cache') },
  });
  return { ...run, close: async () => (await run.close(), await folder.close()) };
}

test('the score card shows the engraving of an imported piece, from engraving to engraved', async () => {
  const run = await consoleWithImport();
  try {
    await run.page.goto(run.consoleUrl);
    const done = await notationLine(run.page, /engraved, (\d+) of \1 on the part pages/);
    expect(done).toMatch(/^Notation test_repeat_volta_simple\.musicxml: engraved, \d+ of \d+ on the part pages\.$/);
    await run.page.screenshot({ path: `${CONSOLE_SHOTS}console-notation.png` });
    expect(run.pageErrors).toEqual([]);
  } finally {
    await run.close();
  }
}, 150_000);

test('a notation file that cannot be engraved is said on the card, and the show plays on', async () => {
  // Edited since the import into something no reader takes.
  const run = await consoleWithImport((notation) => writeFile(notation, '<score-partwise><part id="P1"><measure'));
  try {
    await run.page.goto(run.consoleUrl);
    const failed = await notationLine(run.page, /not shown on the part pages/);
    expect(failed).toMatch(/^Notation test_repeat_volta_simple\.musicxml: not shown on the part pages\. \S.+$/);
    expect(await run.page.$eval('[data-testid=score-notation]', (el) => el.dataset.state)).toBe('failed');
    const res = await fetch(`${run.server.controlUrl}/api/transport`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'play' }),
    });
    expect((await res.json()).transport).toBe('playing');
    expect(run.pageErrors).toEqual([]);
  } finally {
    await run.close();
  }
}, 150_000);
