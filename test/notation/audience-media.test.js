// The engraved pages as the audience's media on a real server (docs/reference/notation.md#the-score-on-the-audiences-phones):
// without a part key, /media/notation/<part>/phone.json and …/phone/<n>.svg answer only for the
// parts a view of the score names (here the piano); 503 with Retry-After while engraving; every
// other part, the full score, another layout and a malformed path are refused and counted. The
// shown part's phone pages are engraved before everything else.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CORPUS_XML, importInto, startNotationServer, tempFolder } from '../support/notation-server.js';

let folder;
let running;
beforeAll(async () => {
  folder = await tempFolder();
  const { scorePath } = await importInto(path.join(CORPUS_XML, 'Dichterliebe01.xml'), folder.dir);
  const score = JSON.parse(await readFile(scorePath, 'utf8'));
  score.cues = [
    { at: { bar: 2 }, view: { score: 'piano', text: 'Follow the piano' } },
    { at: { bar: 20 }, view: { score: null } },
  ];
  await writeFile(scorePath, JSON.stringify(score));
  running = await startNotationServer({ scorePath, cacheDir: path.join(folder.dir, 'cache') });
}, 60_000);
afterAll(async () => {
  await running?.server.close();
  await folder?.close();
});

const media = (rel) => fetch(`${running.server.audienceUrl}/media/${rel}`);
const badInput = async () => {
  const text = await (await running.control('/metrics')).text();
  return [...text.matchAll(/^tutti_bad_input_total\{source="http_body"\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
};

test('a part a view names: 503 while engraving, then its bar map and pages, no key needed', async () => {
  const first = await media('notation/piano/phone.json');
  if (first.status === 503) {
    expect(first.headers.get('retry-after')).toBe('2');
    expect(await first.json()).toMatchObject({ error: 'NOTATION_ENGRAVING' });
  } else expect(first.status).toBe(200);
  await running.server.notation.settled();
  const res = await media('notation/piano/phone.json');
  expect(res.status).toBe(200);
  const map = await res.json();
  expect(map.bars).toHaveLength(27);
  // The same map the part pages get for the phone layout.
  const keyed = await (await fetch(`${running.base}/piano.json?layout=phone`)).json();
  expect(map).toEqual(keyed);
  const page = await media('notation/piano/phone/1.svg');
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  expect(page.headers.get('content-security-policy')).toMatch(/sandbox/);
  expect(await page.text()).toMatch(/^<svg|<\?xml/);
  const again = await media(`notation/piano/phone/1.svg`).then((r) => r.headers.get('etag'));
  const cached = await fetch(`${running.server.audienceUrl}/media/notation/piano/phone/1.svg`, { headers: { 'if-none-match': again } });
  expect(cached.status).toBe(304);
  expect((await media(`notation/piano/phone/${map.pages + 1}.svg`)).status).toBe(404);
});

test('a part no view names, the full score, another layout, a bad path: refused and counted', async () => {
  const before = await badInput();
  for (const rel of ['notation/voice/phone.json', 'notation/voice/phone/1.svg', 'notation/all/phone.json']) {
    const res = await media(rel);
    expect([rel, res.status]).toEqual([rel, 404]);
    expect(await res.json()).toEqual({
      error: 'NOTATION_NOT_SHOWN',
      message: expect.stringMatching(/^no view of this score shows the audience "/),
    });
  }
  for (const rel of [
    'notation/piano/tablet-landscape.json',
    'notation/piano/phone/0.svg',
    'notation/piano.json',
    'notation/piano/phone/x.svg',
  ]) {
    const res = await media(rel);
    expect([rel, res.status, (await res.json()).error]).toEqual([rel, 404, 'NOT_FOUND']);
  }
  expect(await badInput()).toBe(before + 7);
  // The server is fine: the allowed part is still served.
  expect((await media('notation/piano/phone.json')).status).toBe(200);
});

test("the shown part's phone pages are engraved first", async () => {
  await running.server.notation.settled();
  const done = running.lines.filter((l) => /^info notation: \d+\/\d+ /.test(l));
  expect(done).toHaveLength(9); // voice, piano and all in three layouts
  expect(done[0]).toMatch(/^info notation: 1\/9 piano phone, \d+ page\(s\)$/);
});
