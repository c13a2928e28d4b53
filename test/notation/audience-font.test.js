// The music font in the audience's pages (docs/reference/notation.md#the-music-font): the part
// pages name the font by URL under their key, but the audience's media (and the edge, which gets
// the same files) have no font route, so a page there that draws a metronome mark carries the
// font itself. The Mozart quartet's first violin page has "♩ = 100".
import { expect, test } from '@jest/globals';
import { useCorpusNotationServer } from '../support/notation-server.js';

const MOZART = 'Mozart_String_Quartet_in_G_K._387_1st_Mvmnt_excerpt.musicxml';
const EMBEDDED = /@font-face\{font-family:'Leipzig';src:url\(data:font\/woff2;base64,d09GMg/; // "wOF2"

const served = useCorpusNotationServer(MOZART, {
  edit: (score) => {
    score.cues = [{ at: { bar: 2 }, view: { score: 'violin-1', text: 'Follow the first violin' } }];
  },
});

test("the audience's page carries the font; the part page's names it", async () => {
  const res = await fetch(`${served.running.server.audienceUrl}/media/notation/violin-1/phone/1.svg`);
  expect(res.status).toBe(200);
  const shown = await res.text();
  expect(shown).toMatch(EMBEDDED);
  expect(shown).not.toMatch(/url\(\.\.\/font\//);
  const keyed = await (await fetch(`${served.running.base}/violin-1/1.svg?layout=phone`)).text();
  expect(keyed).toMatch(/url\(\.\.\/font\/[A-Za-z0-9_-]{22}\.woff2\)/);
  expect(keyed).not.toMatch(/base64/);
});

test('the files the edge gets carry it too', async () => {
  const files = await served.running.server.notation.mediaFiles(['violin-1'], 'phone');
  const first = files.find((f) => f.src === 'notation/violin-1/phone/1.svg');
  expect(Buffer.from(/** @type {any} */ (first).bytes).toString()).toMatch(EMBEDDED);
});
