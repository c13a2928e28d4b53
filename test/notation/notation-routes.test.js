// The notation routes on a real server (docs/reference/notation.md#notation-routes): 503 with
// Retry-After while engraving, then the bar map and ETag'd SVG pages; one part's staves only (a
// grand staff whole), three layouts, errors as JSON, progress in /api/status and the log, and a
// restart that finds everything in the disk cache and engraves nothing.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CORPUS_XML, importInto, startNotationServer, tempFolder } from '../support/notation-server.js';

const MOZART = 'Mozart_String_Quartet_in_G_K._387_1st_Mvmnt_excerpt.musicxml';
const staffCount = (svg) => {
  const first = svg.indexOf('class="measure"');
  const chunk = svg.slice(first, svg.indexOf('class="measure"', first + 10));
  return chunk.match(/class="staff"/g)?.length ?? 0;
};

/** A song: a voice on one staff and a piano on two (a grand staff), two measures. */
function songXml() {
  const notes = (staff) =>
    `<note><pitch><step>C</step><octave>${staff === 2 ? 3 : 5}</octave></pitch><duration>4</duration><type>whole</type><staff>${staff}</staff></note>`;
  const measure = (n, staves) =>
    `<measure number="${n}">${n === 1 ? `<attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time>${staves === 2 ? '<staves>2</staves><clef number="1"><sign>G</sign><line>2</line></clef><clef number="2"><sign>F</sign><line>4</line></clef>' : '<clef><sign>G</sign><line>2</line></clef>'}</attributes>` : ''}${notes(1)}${staves === 2 ? `<backup><duration>4</duration></backup>${notes(2)}` : ''}</measure>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<score-partwise version="3.1"><work><work-title>Song</work-title></work><part-list>
<score-part id="P1"><part-name>Voice</part-name></score-part><score-part id="P2"><part-name>Piano</part-name></score-part></part-list>
<part id="P1">${measure(1, 1)}${measure(2, 1)}</part><part id="P2">${measure(1, 2)}${measure(2, 2)}</part></score-partwise>`;
}

describe('a string quartet', () => {
  let folder;
  let running;
  beforeAll(async () => {
    folder = await tempFolder();
    const { scorePath } = await importInto(path.join(CORPUS_XML, MOZART), folder.dir);
    running = await startNotationServer({ scorePath, cacheDir: path.join(folder.dir, 'cache') });
  }, 60_000);
  afterAll(async () => {
    await running?.server.close();
    await folder?.close();
  });

  test('while it is engraved: 503 with Retry-After and a JSON error; /api/status says engraving', async () => {
    // Tablets asking at once share one engraving (the restart test below counts them).
    const many = await Promise.all(Array.from({ length: 8 }, () => fetch(`${running.base}/viola.json?layout=phone`)));
    expect(many.map((r) => r.status)).toEqual(Array(8).fill(503));
    const res = await fetch(`${running.base}/viola.json`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toEqual({ error: 'NOTATION_ENGRAVING', message: expect.any(String) });
    const status = await (await running.control('/api/status')).json();
    expect(status.notation).toMatchObject({ state: 'engraving', file: MOZART, error: null });
  });

  test('then: every part in every layout, progress printed, status ready', async () => {
    await running.server.notation.settled();
    const status = await (await running.control('/api/status')).json();
    // 4 parts and "all", 3 layouts
    expect(status.notation).toEqual({ state: 'ready', file: MOZART, parts: { done: 15, total: 15 }, error: null });
    expect(running.lines.filter((l) => /^info notation: \d+\/15 /.test(l))).toHaveLength(15);
    expect(running.lines).toContainEqual(expect.stringMatching(/^info notation: .* engraved \(15 of 15\)/));
  }, 60_000);

  test("a part's pages hold only its staff; the full score holds all four", async () => {
    for (const part of ['violin', 'violin-2', 'viola', 'violoncello']) {
      const map = await (await fetch(`${running.base}/${part}.json`)).json();
      expect(map.bars).toHaveLength(13);
      const svg = await (await fetch(`${running.base}/${part}/1.svg`)).text();
      expect({ part, staves: staffCount(svg) }).toEqual({ part, staves: 1 });
    }
    const viola = await (await fetch(`${running.base}/viola/1.svg`)).text();
    expect(viola).toMatch(/>Viola</);
    expect(viola).not.toMatch(/>Violoncello</);
    const all = await (await fetch(`${running.base}/all/1.svg`)).text();
    expect(staffCount(all)).toBe(4);
  });

  test('layouts: page shapes differ; SVG with credit and ETag, 304 when unchanged', async () => {
    const shapes = {};
    for (const layout of ['tablet-landscape', 'tablet-portrait', 'phone']) {
      const map = await (await fetch(`${running.base}/all.json?layout=${layout}`)).json();
      shapes[layout] = map.width > map.height ? 'wide' : 'tall';
      expect(map.bars.every((b) => b.page >= 1 && b.page <= map.pages)).toBe(true);
    }
    expect(shapes).toEqual({ 'tablet-landscape': 'wide', 'tablet-portrait': 'tall', phone: 'tall' });
    const res = await fetch(`${running.base}/violin/1.svg?layout=phone`);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    // Made from a file someone sent: nothing in it may run.
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(await res.text()).toMatch(/Engraved by Verovio \(verovio\.org, LGPL-3\.0\)/);
    const again = await fetch(`${running.base}/violin/1.svg?layout=phone`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  test('bad requests: JSON errors with the right status', async () => {
    const expectError = async (url, status, error) => {
      const res = await fetch(`${running.base}${url}`);
      expect({ url, status: res.status, body: await res.json() }).toEqual({ url, status, body: { error, message: expect.any(String) } });
    };
    await expectError('/viola.json?layout=a4', 400, 'BAD_LAYOUT');
    await expectError('/viola.xml', 400, 'BAD_NOTATION_REQUEST');
    await expectError('/viola/one.svg', 400, 'BAD_NOTATION_REQUEST');
    await expectError('/a.b.json', 400, 'BAD_NOTATION_REQUEST');
    await expectError('/viola/0.svg', 404, 'NO_SUCH_PAGE');
    await expectError('/viola/99.svg', 404, 'NO_SUCH_PAGE');
    await expectError('/flute.json', 404, 'NOTATION_PART');
    const wrongKey = await fetch(running.base.replace(running.server.partKey, 'wrong-key1'));
    expect(wrongKey.status).toBe(403);
  });

  test('a restart on the same cache engraves nothing and serves the same pages', async () => {
    const before = await (await fetch(`${running.base}/viola/1.svg`)).text();
    expect(running.server.notation.stats().engraved).toBe(15);
    const scorePath = running.server.show.source().path;
    await running.server.close();
    running = await startNotationServer({ scorePath, cacheDir: path.join(folder.dir, 'cache') });
    await running.server.notation.settled();
    expect(running.server.notation.stats().engraved).toBe(0);
    expect(await (await fetch(`${running.base}/viola/1.svg`)).text()).toBe(before);
  }, 60_000);
});

test('a grand staff stays whole; a score without notation answers 404 NO_NOTATION', async () => {
  const folder = await tempFolder();
  let running;
  try {
    const file = path.join(folder.dir, 'song.musicxml');
    await writeFile(file, songXml());
    const { scorePath } = await importInto(file, folder.dir);
    running = await startNotationServer({ scorePath, cacheDir: path.join(folder.dir, 'cache') });
    await running.server.notation.settled();
    expect(staffCount(await (await fetch(`${running.base}/piano/1.svg`)).text())).toBe(2);
    expect(staffCount(await (await fetch(`${running.base}/voice/1.svg`)).text())).toBe(1);
    expect(staffCount(await (await fetch(`${running.base}/all/1.svg`)).text())).toBe(3);
    await running.server.close();
    const bare = path.join(folder.dir, 'bare.score.json');
    await writeFile(
      bare,
      JSON.stringify({
        format: 'tutti-score/1',
        id: 'bare',
        title: 'Bare',
        bars: 2,
        meter: [{ bar: 1, beats: 4, unit: 4 }],
        tempo: [{ at: { bar: 1 }, bpm: 60 }],
      }),
    );
    running = await startNotationServer({ scorePath: bare, cacheDir: path.join(folder.dir, 'cache') });
    const res = await fetch(`${running.base}/all.json`);
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe('NO_NOTATION');
    expect((await (await running.control('/api/status')).json()).notation).toEqual({
      state: 'none',
      file: null,
      parts: { done: 0, total: 0 },
      error: null,
    });
  } finally {
    await running?.server.close();
    await folder.close();
  }
}, 60_000);
