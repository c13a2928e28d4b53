// The replay shows the images and plays the sounds the audience had (docs/how-to/record-and-replay.md#replaying-a-record)
// in real Chromium against real show servers: a short show of a score with an image
// (bar 1) and a swell at gain 0.5 (bar 3) is played and recorded; a second server on the same
// records folder serves the console that replays it. At 1× the preview holds the decoded image
// and the swell really plays; at 16× it is only named; closing the replay revokes its files;
// with the score's folder moved away the image is named by its path again.

import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startShow } from '../support/show.js';
import { waitFor } from '../support/clients.js';
import { writeReplayMediaScore } from '../support/replay-media-score.js';
import { acquireBrowserLock } from '../audience/support/exclusive.js';
import { launchBrowser } from '../audience/support/browser.js';
import { CONSOLE_SHOTS } from '../support/console-page.js';
import { readRecord } from '../../local-server/src/record/record-reader.js';

const recordDir = mkdtempSync(path.join(os.tmpdir(), 'tutti-replay-media-records-'));
const score = writeReplayMediaScore();
let recordId;
let browser;
let releaseLock;
let server;
let page;
const problems = [];

/** Play and record bars 1–5 of the score: the image from bar 1, the swell at bar 3, no image from bar 5. */
async function recordShow() {
  const show = await startShow({ scorePath: score.file, autoplay: false, recordDir });
  await fetch(`${show.controlUrl}/api/transport`, {
    method: 'POST',
    headers: { authorization: `Bearer ${show.token}`, 'x-tutti-client': 'console' },
    body: JSON.stringify({ action: 'play' }),
  });
  await waitFor(() => show.status().position.bar >= 6, 15_000, 'bar 6');
  const id = show.recorder.id;
  await show.close();
  return id;
}

/** Open the console and replay the record from the top (it starts at 1×). */
async function replay() {
  await page.click(`[data-record="${recordId}"] button:text("Replay")`);
  await page.waitForFunction(() => window.__tuttiReplay.status().loaded);
}

const media = () => page.evaluate(() => window.__tuttiReplay.media());

beforeAll(async () => {
  releaseLock = await acquireBrowserLock();
  [recordId, browser] = await Promise.all([recordShow(), launchBrowser()]);
  server = await startShow({ autoplay: false, recordDir });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  await page.goto(`${server.controlUrl}/?token=${server.token}`);
  await page.waitForFunction(() => document.getElementById('conn-badge')?.textContent === 'Live');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await releaseLock?.();
  for (const dir of [recordDir, score.dir, `${score.dir}-moved`]) rmSync(dir, { recursive: true, force: true });
});

test('at 1× the preview shows the view’s image and the swell plays at its gain; closing revokes the files', async () => {
  await replay();
  // The image of bar 1, decoded in the preview's <img>, and no longer named by its path.
  await page.waitForFunction(() => {
    const img = /** @type {HTMLImageElement} */ (document.getElementById('replay-img'));
    return !img.hidden && img.complete && img.naturalWidth > 0;
  });
  expect(await page.evaluate(() => document.getElementById('replay-img').naturalWidth)).toBe(640);
  expect(await page.textContent('#replay-image')).toBe('');
  await page.evaluate(() => document.getElementById('replay').scrollIntoView());
  await page.screenshot({ path: `${CONSOLE_SHOTS}replay-media.png` });
  // The swell of bar 3 plays (its play() resolved), at the cue's gain.
  await page.waitForFunction(() => window.__tuttiReplay.media().started.length > 0, undefined, { timeout: 15_000 });
  expect((await media()).started).toEqual([{ src: 'media/media/swell.wav', gain: 0.5 }]);
  // The 3-s swell plays on until the replay pauses, which silences it; playing on does not restart it.
  expect((await media()).playing).toBe(1);
  await page.click('#replay-play');
  expect((await media()).playing).toBe(0);
  await page.click('#replay-play');
  // Bar 5 takes the image away.
  await page.waitForFunction(() => document.getElementById('replay-img').hidden, undefined, { timeout: 15_000 });

  await page.waitForFunction(() => window.__tuttiReplay.media().blobs === 2);
  await page.click('#replay-close');
  expect(await media()).toEqual({ asked: 0, started: [], playing: 0, blobs: 0 });
  expect(problems).toEqual([]);
}, 60_000);

test('at 16× and after a jump nothing sounds; the cue is named', async () => {
  await replay();
  await page.click('#replay-speed-16');
  await page.fill('#replay-seek', '0');
  await page.waitForFunction(() => !window.__tuttiReplay.status().running, undefined, { timeout: 20_000 });
  // The whole record went by at 16×, the swell with it: no sound was even asked for, yet both
  // files were fetched when the replay loaded, before they were due.
  expect((await media()).asked).toBe(0);
  await page.waitForFunction(() => window.__tuttiReplay.media().blobs === 2);
  // A jump (paused) onto the swell names it and plays nothing.
  const { entries } = readRecord(path.join(recordDir, recordId));
  const start = entries.find((e) => e.k === 'open').t;
  const swellAt = entries.find((e) => e.k === 'env' && e.e.data.audio?.src).e.data.audio.at;
  await page.click('#replay-speed-1');
  await page.fill('#replay-seek', String(Math.ceil((swellAt - start) / 100) * 100 + 100));
  expect(await page.textContent('#replay-sound')).toBe('♪ media/media/swell.wav');
  expect((await media()).asked).toBe(0);
  await page.click('#replay-close');
  expect(problems).toEqual([]);
}, 60_000);

test('with the score’s folder moved away, the image is named by its path', async () => {
  renameSync(score.dir, `${score.dir}-moved`);
  await replay();
  await page.waitForFunction(() => document.getElementById('replay-image').textContent === 'image: media/media/lines.svg');
  // Still named after its fetch failed (404 NO_SUCH_MEDIA), never shown.
  await page.waitForFunction(() => window.__tuttiReplay.status().t - window.__tuttiReplay.status().start > 1500);
  expect(await page.textContent('#replay-image')).toBe('image: media/media/lines.svg');
  expect(await page.evaluate(() => document.getElementById('replay-img').hidden)).toBe(true);
  await page.click('#replay-close');
  // The console logs the 404 of the fetch as a failed resource; nothing else went wrong.
  expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
}, 60_000);
