// A phone opening the audience page, for the `http` engine:
//
//   - flow:
//       - function: waitForBurstSlot          # ZScore's arrivals: bursts of 1–5, 0–1 s apart
//       - function: pageStart
//       - get:
//           url: "/"
//           headers: { accept-encoding: "br, gzip" }
//           afterResponse: pageHtml            # finds the hashed assets in index.html
//       - loop:
//           - get:
//               url: "{{ $loopElement }}"
//               headers: { accept-encoding: "br, gzip" }
//               afterResponse: pageAsset
//         over: pageAssets
//       - function: pageDone                   # tutti.page_load_ms; fails the VU on any non-200
//
// Records tutti.page_load_ms (histogram: first request → last byte of the last asset),
// tutti.page_bytes (histogram: bytes on the wire per page load, compressed as sent) and
// tutti.page_loads (counter: complete, all-200 page loads).
// Variables: burstSeed (number), serviceWorker ("false" to skip sw.js), media (comma-separated
// page-relative URLs fetched after the app, e.g. the score's audio, as a phone does on Join).

import { createBurstSchedule } from './lib/bursts.js';
import { pageAssetUrls } from './lib/page-assets.js';
import { httpUrl } from './lib/target-url.js';

/** One schedule per worker thread; its clock starts with the first phone. */
let schedule = null;
let origin = 0;

/** Wait for this phone's place in the burst schedule. */
export async function waitForBurstSlot(context) {
  if (!schedule) {
    schedule = createBurstSchedule({ seed: Number(context.vars.burstSeed) || 1 });
    origin = Date.now();
  }
  const { offsetMs } = schedule.next();
  const wait = origin + offsetMs - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

export function pageStart(context, events, done) {
  context.tuttiPage = { startedAt: Date.now(), bytes: 0, failures: [] };
  context.vars.pageAssets = [];
  done();
}

/** afterResponse of GET /: list what the browser would fetch next. */
export function pageHtml(req, res, context, events, done) {
  const page = context.tuttiPage;
  account(page, req, res);
  if (res.statusCode !== 200) return done();
  const pageUrl = req.url ?? httpUrl(context.vars.target, '/');
  const urls = pageAssetUrls(String(res.body ?? ''), pageUrl);
  if (urls.length === 0) page.failures.push('index.html names no assets');
  if (String(context.vars.serviceWorker) !== 'false') urls.push(new URL('sw.js', pageUrl).href);
  for (const m of String(context.vars.media ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    urls.push(new URL(m, pageUrl).href);
  }
  context.vars.pageAssets = urls;
  done();
}

/** afterResponse of each asset. */
export function pageAsset(req, res, context, events, done) {
  account(context.tuttiPage, req, res);
  done();
}

/** Record the page load; any failed request fails the VU (so `maxErrorRate` sees it). */
export async function pageDone(context, events) {
  const page = context.tuttiPage;
  if (!page) throw new Error('pageDone ran without pageStart');
  if (page.failures.length) throw new Error(`page load failed (${page.failures[0]})`);
  events.emit('histogram', 'tutti.page_load_ms', Date.now() - page.startedAt);
  events.emit('histogram', 'tutti.page_bytes', page.bytes);
  events.emit('counter', 'tutti.page_loads', 1);
}

function account(page, req, res) {
  const length = Number(res.headers?.['content-length']);
  page.bytes += Number.isFinite(length) ? length : Buffer.byteLength(String(res.body ?? ''));
  if (res.statusCode !== 200) page.failures.push(`HTTP ${res.statusCode} ${new URL(req.url).pathname}`);
}
