// The music font in the audience's pages (docs/reference/notation.md#the-music-font): the part
// pages name the font by URL under their key, but the audience's media (and the edge, which gets
// the same files) have no font route, so a page there that draws a metronome mark carries the
// font itself. The Mozart quartet's first violin page has "♩ = 100".
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CORPUS_XML, importInto, startNotationServer, tempFolder } from '../support/notation-server.js';

const MOZART = 'Mozart_String_Quartet_in_G_K._387_1st_Mvmnt_excerpt.musicxml';
const EMBEDDED = /@font-face\{font-family:'Leipzig';src:url\(data:font\/woff2;base64,d09GMg/; // "wOF2"

let folder;
let running;
beforeAll(async () => {
  folder = await tempFolder();
  const { scorePath } = await importInto(path.join(CORPUS_XML, MOZART), folder.dir);
  const score = JSON.parse(await readFile(scorePath, 'utf8'));
  score.cues = [{ at: { bar: 2 }, view: { score: 'violin-1', text: 'Follow the first violin' } }];
  await writeFile(scorePath, JSON.stringify(score));
  running = await startNotationServer({ scorePath, cacheDir: path.join(folder.dir, 'cache') });
  await running.server.notation.settled();
}, 120_000);
afterAll(async () => {
  await running?.server.close();
  await folder?.close();
});

test("the audience's page carries the font; the part page's names it", async () => {
  const res = await fetch(`${running.server.audienceUrl}/media/notation/violin-1/phone/1.svg`);
  expect(res.status).toBe(200);
  const shown = await res.text();
  expect(shown).toMatch(EMBEDDED);
  expect(shown).not.toMatch(/url\(\.\.\/font\//);
  const keyed = await (await fetch(`${running.base}/violin-1/1.svg?layout=phone`)).text();
  expect(keyed).toMatch(/url\(\.\.\/font\/[A-Za-z0-9_-]{22}\.woff2\)/);
  expect(keyed).not.toMatch(/base64/);
});

test('the files the edge gets carry it too', async () => {
  const files = await running.server.notation.mediaFiles(['violin-1'], 'phone');
  const first = files.find((f) => f.src === 'notation/violin-1/phone/1.svg');
  expect(Buffer.from(/** @type {any} */ (first).bytes).toString()).toMatch(EMBEDDED);
});
