// What a page weighs (docs/reference/notation.md#page-size): every page of the densest corpus
// files is at most 15 KB gzipped as sent, and a page whose tempo mark draws a SMuFL glyph names
// the music font, served once under its hash, instead of embedding it (43 KB gzipped) again.
import { describe, expect, test } from '@jest/globals';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { useCorpusNotationServer } from '../support/notation-server.js';

const MOZART = 'Mozart_String_Quartet_in_G_K._387_1st_Mvmnt_excerpt.musicxml';
const DENSE = 'Dichterliebe01.xml';
const LAYOUTS = ['tablet-landscape', 'tablet-portrait', 'phone'];
const PAGE_LIMIT = 15 * 1024;

/** The bytes as they cross the network (fetch would inflate them), and the headers. */
const raw = (url, headers = {}) =>
  new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });

describe.each([MOZART, DENSE])('%s', (file) => {
  const served = useCorpusNotationServer(file);

  test('every page of every part in every layout is at most 15 KB gzipped as sent', async () => {
    const parts = [...served.running.server.show.engine.score().parts.map((p) => p.id), 'all'];
    const over = [];
    let pages = 0;
    for (const layout of LAYOUTS)
      for (const part of parts) {
        const map = await (await fetch(`${served.running.base}/${part}.json?layout=${layout}`)).json();
        for (let n = 1; n <= map.pages; n += 1) {
          const url = `${served.running.base}/${part}/${n}.svg?layout=${layout}`;
          const sent = await raw(url, { 'accept-encoding': 'gzip' });
          expect(sent.headers['content-encoding']).toBe('gzip');
          expect(gunzipSync(sent.body).equals((await raw(url)).body)).toBe(true);
          if (sent.body.length > PAGE_LIMIT) over.push(`${layout} ${part} page ${n}: ${sent.body.length} bytes`);
          pages += 1;
        }
      }
    expect(pages).toBeGreaterThan(10);
    expect(over).toEqual([]);
  }, 60_000);
});

describe('the music font of a metronome mark', () => {
  const served = useCorpusNotationServer(MOZART);

  test('the page names the font by URL and embeds none; the font is served once, for good', async () => {
    const pageUrl = `${served.running.base}/all/1.svg`;
    const svg = await (await fetch(pageUrl)).text();
    expect(svg).toMatch(/<g class="tempo">[^]*font-family="Leipzig"/); // "♩ = 100" draws a SMuFL note
    expect(svg).not.toMatch(/base64|data:/);
    const named = /@font-face\{font-family:'Leipzig';src:url\((\.\.\/font\/[A-Za-z0-9_-]{22}\.woff2)\)/.exec(svg);
    expect(named).not.toBeNull();
    const font = await fetch(new URL(/** @type {string[]} */ (named)[1], pageUrl));
    expect(font.status).toBe(200);
    expect(font.headers.get('content-type')).toBe('font/woff2');
    expect(font.headers.get('cache-control')).toMatch(/immutable/);
    expect(
      Buffer.from(await font.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('wOF2');
    // A page without such text names no font.
    expect(await (await fetch(`${served.running.base}/violoncello/1.svg`)).text()).not.toMatch(/font\//);
    const none = await fetch(`${served.running.base}/font/${'A'.repeat(22)}.woff2`);
    expect(none.status).toBe(404);
  });
});
