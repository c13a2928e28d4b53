// bench:notation-join's tablet: what the part page fetches before its first page is on screen
// (docs/reference/benchmarks.md#notation-join), in the browser's order: the page, its script and
// style (in parallel), the cue table (parts.json), the part's bar map (again after Retry-After
// while engraving), page 1, and the music font when page 1 names it. Its WebSocket is left out. Up to 6 keep-alive connections, as a browser opens; gzip
// accepted, as a browser does on http://. Bytes are counted as sent.

import http from 'node:http';
import { gunzipSync } from 'node:zlib';

const TIMEOUT_MS = 60_000;

/**
 * @param {string} base the part page's URL (…/part/<key>/)
 * @param {string} part a part id or "all"
 * @param {string} layout
 * @returns {Promise<{ ms: number, textMs: number, bytes: number, requests: number, font: boolean }>}
 *   `ms`: until page 1 and the font it names are here; `textMs`: until page 1 is (before its font)
 */
export async function tabletVisit(base, part, layout) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  const started = performance.now();
  let bytes = 0;
  let requests = 0;
  const get = (url) =>
    new Promise((resolve, reject) => {
      requests += 1;
      const request = http.get(url, { agent, headers: { 'accept-encoding': 'gzip' }, timeout: TIMEOUT_MS }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          bytes += raw.length;
          const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
          resolve({ status: res.statusCode, headers: res.headers, body });
        });
        res.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new Error(`${url} took more than ${TIMEOUT_MS} ms`)));
      request.on('error', reject);
    });
  try {
    const html = await get(base);
    const assets = [...html.body.toString().matchAll(/<(?:script|link rel="stylesheet")[^>]*(?:src|href)="([^"]+)"/g)];
    await Promise.all(assets.map((m) => get(new URL(m[1], base))));
    const table = await get(new URL('parts.json', base));
    if (table.status !== 200) throw new Error(`parts.json answered ${table.status}`);
    const mapUrl = new URL(`notation/${part}.json?layout=${layout}`, base);
    let map = await get(mapUrl);
    for (let tries = 0; map.status === 503 && tries < 30; tries += 1) {
      await new Promise((r) => setTimeout(r, Number(map.headers['retry-after'] ?? 1) * 1000));
      map = await get(mapUrl);
    }
    if (map.status !== 200) throw new Error(`${mapUrl} answered ${map.status}`);
    const pageUrl = new URL(`notation/${part}/1.svg?layout=${layout}`, base);
    const page = await get(pageUrl);
    if (page.status !== 200) throw new Error(`${pageUrl} answered ${page.status}`);
    const textMs = performance.now() - started;
    const named = /url\((\.\.\/font\/[A-Za-z0-9_-]{22}\.woff2)\)/.exec(page.body.toString());
    if (named) await get(new URL(named[1], pageUrl));
    return { ms: performance.now() - started, textMs, bytes, requests, font: Boolean(named) };
  } finally {
    agent.destroy();
  }
}
