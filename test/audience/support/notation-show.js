// A show playing a corpus file's notation for the part-page browser suites
// (test/audience/part-notation.test.js, test/browsers/part-notation.test.js), and the check they
// share: where the cursor moved from one page half to another, what the screen showed a beat before.

import path from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { startShow } from '../../support/show.js';
import { CORPUS_XML, tempFolder, importInto } from '../../support/notation-server.js';
import { pageHalves } from '#core/client/page-turns.js';

/**
 * A corpus file imported as `tutti import` does (so the score names its notation), played at
 * `bpm` so a test runs through it in seconds, on a server with its own notation cache.
 * @param {string} file a file in test/fixtures/corpus/musicxml
 * @param {number} bpm
 * @param {Record<string, unknown>} [extra] score fields to add (cues)
 */
export async function notationShow(file, bpm, extra = {}) {
  const folder = await tempFolder();
  const { scorePath } = await importInto(path.join(CORPUS_XML, file), folder.dir);
  const score = JSON.parse(await readFile(scorePath, 'utf8'));
  await writeFile(scorePath, JSON.stringify({ ...score, tempo: [{ at: { bar: 1 }, bpm }], ...extra }));
  const show = await startShow({ scorePath, autoplay: false, notationCacheDir: path.join(folder.dir, 'cache') });
  return { show, score, close: async () => (await show.close(), await folder.close()) };
}

/**
 * Every first beat of a bar in another page half than the bar before it, with the half and the
 * screen shown on the beat before it (the page's notation moves, `window.__part.notation()`).
 * @param {Array<{ bar: number, beat: number, screen: string }>} moves the moves while playing, in order
 * @param {import('#core/client/page-turns.js').BarMap} map the part's bar map
 * @returns {Array<{ bar: number, half: string, before: string }>}
 */
export function halfChanges(moves, map) {
  const halves = pageHalves(map);
  const halfName = (bar) => `${halves.halfOfBar(bar)?.page}${halves.halfOfBar(bar)?.half}`;
  return moves
    .map((m, k) => ({ m, k }))
    .filter(({ m, k }) => k > 0 && m.beat === 1 && halfName(m.bar) !== halfName(moves[k - 1].bar))
    .map(({ m, k }) => ({ bar: m.bar, half: halfName(m.bar), before: moves[k - 1].screen }));
}
