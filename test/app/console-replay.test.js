// Replaying a performance record in the console (docs/how-to/record-and-replay.md#replaying-a-record), in real
// Chromium against real show servers: a short show is played and recorded (views every 2 bars, a
// seek into section B, a tempo change); a second server, on the same records folder, serves the
// console that replays it at 4×. The preview shows each view at its time in the record, scaled
// by the speed; clicking an action jumps there; meanwhile a real viewer socket of that server and
// a real UDP socket among its OSC targets receive nothing. Screenshot: artifacts/console/.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import dgram from 'node:dgram';
import { fileURLToPath } from 'node:url';
import { startShow } from '../support/show.js';
import { openWs, waitFor } from '../support/clients.js';
import { writeRehearsalModeScore } from '../support/rehearsal-mode-score.js';
import { acquireBrowserLock } from '../audience/support/exclusive.js';
import { launchBrowser } from '../audience/support/browser.js';
import { readRecord } from '../../local-server/src/record/record-reader.js';

const SHOTS = fileURLToPath(new URL('../../artifacts/console/', import.meta.url));
const recordDir = mkdtempSync(path.join(os.tmpdir(), 'tutti-replay-'));
const scorePath = writeRehearsalModeScore({ bpm: 400 }); // a bar every 0.6 s, a view every 1.2 s
let recordId;
let entries;
let browser;
let releaseLock;

/** Play and record a short show: bars 1–8, a seek to bar 21 (section B), a tempo change, bars on. */
async function recordShortShow() {
  const show = await startShow({ scorePath, autoplay: false, recordDir });
  const post = (p, body) =>
    fetch(`${show.controlUrl}${p}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${show.token}`, 'x-tutti-client': 'console' },
      body: JSON.stringify(body),
    });
  await post('/api/transport', { action: 'play' });
  await waitFor(() => show.status().position.bar >= 8, 15_000, 'bar 8');
  await post('/api/transport', { action: 'seek', bar: 21 });
  await post('/api/tempo', { bpm: 300 });
  await waitFor(() => show.status().position.bar >= 24, 15_000, 'bar 24');
  await post('/api/transport', { action: 'stop' });
  const id = show.recorder.id;
  await show.close();
  return id;
}

beforeAll(async () => {
  releaseLock = await acquireBrowserLock();
  mkdirSync(SHOTS, { recursive: true });
  [recordId, browser] = await Promise.all([recordShortShow(), launchBrowser()]);
  entries = readRecord(path.join(recordDir, recordId)).entries;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await releaseLock?.();
  rmSync(recordDir, { recursive: true, force: true });
});

test('GET /api/records/<id>/entries pages through the record; bad paging is a 400', async () => {
  const server = await startShow({ scorePath, autoplay: false, recordDir });
  const get = (p) => fetch(`${server.controlUrl}${p}`, { headers: { authorization: `Bearer ${server.token}` } });
  try {
    const pages = [];
    let from = 0;
    while (from !== null) {
      const page = await (await get(`/api/records/${recordId}/entries?from=${from}&limit=10`)).json();
      pages.push(page);
      from = page.next;
    }
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flatMap((p) => p.entries)).toEqual(entries);
    expect(pages[0]).toMatchObject({ id: recordId, total: entries.length, from: 0, next: 10 });
    for (const query of ['?from=-1', '?limit=0', '?limit=10001', '?from=x', '?page=2', '?from=1&from=2']) {
      const res = await get(`/api/records/${recordId}/entries${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(await res.json()).toMatchObject({ error: 'BAD_QUERY' });
    }
    expect((await get('/api/records/20990101-000000-zzzz/entries')).status).toBe(404);
    expect((await get('/api/records/..%2F..%2Fetc/entries')).status).toBe(404);
    expect((await get('/core/protocol/merge-patch.js')).status).toBe(200);
  } finally {
    await server.close();
  }
}, 30_000);

test('the console replays the record at 4×: views at their scaled times, a jump, and nothing to the audience or OSC', async () => {
  const udp = dgram.createSocket('udp4');
  const packets = [];
  udp.on('message', (m) => packets.push(m));
  await new Promise((resolve) => udp.bind(0, '127.0.0.1', resolve));
  const server = await startShow({
    scorePath,
    autoplay: false,
    recordDir,
    oscTargets: [{ host: '127.0.0.1', port: udp.address().port }],
  });
  const viewer = await openWs(server.audienceUrl);
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  try {
    await page.goto(`${server.controlUrl}/?token=${server.token}`);
    await page.waitForFunction(() => document.getElementById('conn-badge')?.textContent === 'Live');
    await waitFor(() => viewer.tracker.state, 5000, 'the viewer in');
    const viewerFrames = viewer.tracker.envelopes.length;
    const packetsBefore = packets.length;

    // Replay the record (it starts at 1×), switch to 4× and go back to the top with the slider.
    await page.click(`[data-record="${recordId}"] button:text("Replay")`);
    await page.waitForFunction(() => window.__tuttiReplay.status().loaded);
    await page.click('#replay-speed-4');
    const before = await page.evaluate(() => window.__tuttiReplay.views().length);
    await page.fill('#replay-seek', '0');
    await page.waitForFunction(() => !window.__tuttiReplay.status().running, undefined, { timeout: 20_000 });
    const views = (await page.evaluate(() => window.__tuttiReplay.views())).slice(before);
    // (A view can be published again with the same words, e.g. when play starts: one entry per change of words.)
    const texts = views.map((v) => v.text).filter((text, i, all) => text && text !== all[i - 1]);
    // Every view the record's state had, in order (bars 1–7, then B from bar 21).
    expect(texts.slice(0, 4)).toEqual(['Bar 1', 'Bar 3', 'Bar 5', 'Bar 7']);
    expect(texts).toContain('Bar 21');
    expect(texts).toContain('Bar 23');
    // Each shown at its own time in the record, never early, and late by less than 100 ms of page time
    // (the replay ticks every 20 ms; a loaded machine delays a tick) …
    const lateMs = views.filter((x) => x.viewAt !== null).map((v) => (v.t - v.viewAt) / 4);
    expect(Math.min(...lateMs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...lateMs)).toBeLessThan(100);
    // … and the page's clock ran at 4×: from bar 3 to bar 7, 2.4 s of record, 0.6 s of page time.
    const bar3 = views.find((v) => v.text === 'Bar 3');
    const bar7 = views.find((v) => v.text === 'Bar 7');
    const recordGap = bar7.viewAt - bar3.viewAt;
    expect(recordGap).toBeGreaterThan(2000);
    expect(Math.abs(bar7.wall - bar3.wall - recordGap / 4)).toBeLessThan(100);

    // Jump to the seek action (the console did it) and play on at 1×: the phones' bar 21 in section B.
    await page.click('#replay-speed-1');
    await page.click('#replay-actions button:text("seek to bar 21")');
    expect(await page.textContent('#replay-section')).toBe('A');
    await page.click('#replay-play');
    await page.waitForFunction(() => document.getElementById('replay-section').textContent === 'B');
    await page.click('#replay-play'); // pause on it
    const seekAct = entries.find((e) => e.k === 'act' && e.what.startsWith('seek to bar 21'));
    expect(seekAct.by).toBe('console');
    expect(Number(await page.textContent('#replay-bar'))).toBe(21);
    expect(await page.textContent('[data-testid=replay-text]')).toBe('Bar 21');
    expect(await page.textContent('#replay-actions')).toContain('300 bpm');
    await page.evaluate(() => document.getElementById('replay').scrollIntoView());
    await page.screenshot({ path: `${SHOTS}replay.png` });

    // Nothing of the replay reached the audience or the musicians.
    expect(viewer.tracker.envelopes.length).toBe(viewerFrames);
    expect(packets.length).toBe(packetsBefore);
    expect(server.show.stream.seq()).toBe(0);
    expect(problems).toEqual([]);
  } finally {
    viewer.ws.terminate();
    await page.close();
    await server.close();
    udp.close();
  }
}, 90_000);
