// The musicians' part page (docs/how-to/part-pages.md#part-pages) in real Chromium at a tablet viewport,
// against a real show server: the page behind the console's key picks a part, follows the same
// state stream and clock sync as the audience page, shows each of the player's cues at its beat
// (within the sync test's tolerance), counts down in beats correctly through meter changes,
// written ramps and an operator's tempo change, and schedules its click at every beat's server
// time with the downbeat accented and the bar before each entry counted in. The console lists the
// page (part, sync quality, last seen). Screenshots: artifacts/audience/part-*.png.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireBrowserLock } from './support/exclusive.js';
import { ARTIFACTS, launchBrowser, openPage, startShow, control, waitInPage, quantile, trueOffset } from './support/browser.js';
import { startOutageProxy } from '../support/outage-proxy.js';
import { openWs } from '../support/clients.js';
import { partCueTable } from '#core/score/part-cues.js';
import { cuesForPart } from '#core/client/part-plan.js';

export const TABLET = { viewport: { width: 1180, height: 820 }, deviceScaleFactor: 1, hasTouch: true, isMobile: false };
/** The sync test's limit (test/audience/sync.test.js, docs/results.md#how-fast-how-small). */
const TOLERANCE_MS = 10;

/** Meter changes (4/4 → 3/4 → 5/8), two written ramps, cues for two parts and one for everyone. */
export const PART_TEST_SCORE = {
  format: 'tutti-score/1',
  id: 'part-page-test',
  title: 'Part page test',
  bars: 14,
  meter: [
    { bar: 1, beats: 4, unit: 4 },
    { bar: 6, beats: 3, unit: 4 },
    { bar: 10, beats: 5, unit: 8 },
  ],
  tempo: [
    { at: { bar: 1 }, bpm: 150 },
    { at: { bar: 4 }, bpm: 150, to: 240, until: { bar: 8 } },
    { at: { bar: 8 }, bpm: 200 },
    { at: { bar: 11 }, bpm: 300, to: 180, until: { bar: 13 } },
  ],
  sections: [
    { at: { bar: 1 }, mark: 'A', name: 'Opening' },
    { at: { bar: 6 }, mark: 'B', name: 'Turning' },
    { at: { bar: 10 }, mark: 'C' },
  ],
  parts: [
    { id: 'vln', name: 'Violin', osc: '/vln' },
    { id: 'vc', name: 'Cello', osc: '/vc' },
  ],
  cues: [
    { at: { bar: 2 }, osc: { part: 'vln', address: '/cue', args: ['A2', 'pp', 'sul tasto'] } },
    { at: { bar: 3 }, osc: { part: 'vc', address: '/cue', args: ['A3', 'p'] } },
    { at: { bar: 5, beat: 3 }, osc: { part: 'vln', address: '/cue', args: ['B', 'mf'] } },
    { at: { bar: 6 }, label: 'everyone: breathe', osc: { address: '/all/breathe', args: [] } },
    { at: { bar: 7, beat: 2 }, osc: { part: 'vln', address: '/dyn', args: ['cresc'] } },
    { at: { bar: 9 }, osc: { part: 'vln', address: '/cue', args: ['C', 'f', 'ord.'] } },
    { at: { bar: 11, beat: 4 }, osc: { part: 'vln', address: '/cue', args: ['D', 'ff'] } },
    { at: { bar: 13 }, osc: { part: 'vln', address: '/cue', args: ['E', 'dim.'] } },
    { at: { bar: 14, beat: 5 }, osc: { part: 'vc', address: '/cue', args: ['end'] } },
  ],
};

/** Write a score to a temporary folder and return its path (loadScoreFile reads files). */
export async function writeTempScore(score) {
  const dir = await mkdtemp(join(tmpdir(), 'tutti-part-'));
  const file = join(dir, `${score.id}.score.json`);
  await writeFile(file, JSON.stringify(score));
  return { dir, file };
}

let browser;
let releaseLock;
let scoreDir;
let show;

beforeAll(async () => {
  releaseLock = await acquireBrowserLock();
  const { dir, file } = await writeTempScore(PART_TEST_SCORE);
  scoreDir = dir;
  [show, browser] = await Promise.all([startShow({ scorePath: file, autoplay: false }), launchBrowser()]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await show?.close();
  await rm(scoreDir, { recursive: true, force: true });
  await releaseLock?.();
});

const text = (page, id) => page.evaluate((name) => document.getElementById(name)?.textContent ?? null, id);

test('picks a part; cues at their beats; countdown right through meter changes, ramps and a tempo change; click at every beat time', async () => {
  const { page, problems } = await openPage(browser, TABLET);
  await page.goto(`${show.audienceUrl}/part/${show.partKey}/`);
  // The picker lists the score's parts; picking one starts following it.
  await waitInPage(page, () => document.querySelectorAll('#part-list button').length === 3);
  await page.screenshot({ path: `${ARTIFACTS}part-picker.png` });
  await page.click('#part-list button[data-part="vln"]');
  await waitInPage(page, () => window.__part.part() === 'vln' && document.getElementById('picker').hidden);
  expect(await text(page, 'part-name')).toBe('Violin');
  // The screen stays on from that tap (Screen Wake Lock, or the keep-awake video where it is missing or refused).
  await waitInPage(page, () => window.__part.screenOn().wanted && (window.__part.screenOn().wakeLock || window.__part.screenOn().video));
  // Stopped at the top: the countdown already counts to the first entry (bar 2 = 4 beats away).
  await waitInPage(page, () => document.getElementById('countdown')?.textContent === '4');
  // Clock learned (the same schedule as the audience page), then the click on for every beat (two taps: count-ins, every beat).
  await waitInPage(page, () => (window.__part.clock()?.total ?? 0) >= 40, undefined, 20_000);
  await page.click('#click');
  await page.click('#click');
  expect(await page.evaluate(() => document.getElementById('click').dataset.mode)).toBe('every');

  // The console sees the page: which part, its clock-sync quality, last seen.
  const deadline = Date.now() + 10_000;
  let listed;
  while (Date.now() < deadline) {
    listed = (await control(show, 'GET', '/api/parts')).pages.find((p) => p.part === 'vln' && p.click);
    if (listed) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(listed).toEqual(expect.objectContaining({ part: 'vln', partName: 'Violin', transport: 'ws', gone: false }));
  expect(listed.rtt).toBeGreaterThanOrEqual(0);
  expect(listed.rtt).toBeLessThan(100);
  expect(listed.bound).toBeGreaterThanOrEqual(0);
  expect(listed.ago).toBeLessThan(10_000);

  /** What the server sounds: every beat and every OSC cue, with its server time. */
  const beats = new Map();
  const oscCues = [];
  const onBeat = (b) => beats.set(b.index, b);
  const onCue = (c) => oscCues.push(c);
  show.show.events.on('beat', onBeat);
  show.show.events.on('osc-cue', onCue);
  try {
    await control(show, 'POST', '/api/transport', { action: 'play' });
    // Mid-piece, inside the first ramp, the operator takes the tempo up.
    await waitInPage(page, () => window.__part.displays().some((d) => d.bar >= 5));
    await page.screenshot({ path: `${ARTIFACTS}part-playing.png` });
    await control(show, 'POST', '/api/tempo', { bpm: 210 });
    await waitInPage(page, () => window.__part.displays().some((d) => d.bar === 9 && d.beat === 1));
    await page.screenshot({ path: `${ARTIFACTS}part-cue-now.png` });
    await waitInPage(page, () => window.__part.state()?.transport === 'stopped' && window.__part.displays().length > 0, undefined, 30_000);
  } finally {
    show.show.events.off('beat', onBeat);
    show.show.events.off('osc-cue', onCue);
  }
  const { offset } = await trueOffset(page, show, 15);
  const displays = await page.evaluate(() => window.__part.displays());
  const clicks = await page.evaluate(() => window.__part.clicks());

  const table = partCueTable(show.show.engine.score());
  const vln = cuesForPart(table.cues, 'vln');
  expect(beats.size).toBe(table.score.totalBeats);
  expect(displays.map((d) => d.index)).toEqual([...beats.keys()]);

  // The countdown at every beat: the first of the player's cues at or after it, in beats.
  for (const d of displays) {
    const next = vln.find((c) => c.i >= d.index) ?? null;
    expect([d.index, d.next, d.inBeats]).toEqual([d.index, next ? next.i : null, next ? next.i - d.index : null]);
  }
  // Each of the player's cues is on screen ("Now") at its beat, the beat the server sends its OSC on.
  for (const cue of vln) {
    const d = displays.find((x) => x.index === cue.i);
    expect([cue.i, d.countdown]).toEqual([cue.i, 'Now']);
    if (cue.part === 'vln')
      expect(oscCues.find((c) => c.address === cue.address && Math.abs(c.at - beats.get(cue.i).at) < 0.01)).toBeDefined();
  }

  // The click: one per beat that sounded, at that beat's server time, put on the audio clock ahead of it.
  const live = clicks.filter((c) => !c.cancelled);
  const clicked = new Map(live.map((c) => [c.index, c]));
  expect(clicked.size).toBe(live.length);
  for (const [index, beat] of beats) {
    const c = clicked.get(index);
    expect(c).toBeDefined();
    expect(Math.abs(c.at - beat.at)).toBeLessThan(0.01);
    expect(c.when).toBeGreaterThan(c.ctxNow);
    expect(c.accent).toBe(beat.beat === 1);
    const entry = vln.find((x) => x.i > index);
    const ahead = entry ? entry.i - index : Infinity;
    expect(c.countIn).toBe(ahead <= beat.beats ? beat.beats - ahead + 1 : null);
  }
  // Each click's lead on the audio clock is its beat's lead on the synced clock when it was scheduled.
  const leadErrors = await page.evaluate(
    (list) => list.map((c) => Math.abs(c.when - c.ctxNow - (c.at - window.__part.toServer(performance.timeOrigin + c.perfNow)) / 1000)),
    live,
  );
  expect(Math.max(...leadErrors)).toBeLessThan(0.06); // output latency is inside this, as for the audience's cues (page.test.js)
  // On the audio clock the clicks are as far apart as the beats' server times (ramps, the tempo change): no drift.
  const sorted = live.slice().sort((x, y) => x.index - y.index);
  const spacingErrors = sorted.slice(1).map((c, k) => Math.abs((c.when - sorted[k].when) * 1000 - (c.at - sorted[k].at)));
  expect(Math.max(...spacingErrors)).toBeLessThan(2);
  // The clicks the tempo change took back were for beats whose time it moved, or were put back
  // at once from the new segment (the beat it re-anchors on keeps its time).
  for (const c of clicks.filter((x) => x.cancelled))
    expect(Math.abs(c.at - beats.get(c.index).at) > 1 || clicked.get(c.index).key !== c.key).toBe(true);
  await page.screenshot({ path: `${ARTIFACTS}part-ended.png` });
  expect(problems).toEqual([]);

  // Timing last (the rest holds whatever the machine's load): each beat went on screen at the
  // server's time for it, measured against a ground-truth offset; every cue beat and the p99 of
  // all beats within the sync test's tolerance.
  const errors = displays.map((d) => d.local + offset - beats.get(d.index).at);
  const abs = errors.map(Math.abs);
  const cueErrors = vln.map((cue) => abs[displays.findIndex((d) => d.index === cue.i)]);
  console.log(
    `part page: ${displays.length} beats shown, |error| p50 ${quantile(abs, 0.5).toFixed(2)} ms, p99 ${quantile(abs, 0.99).toFixed(2)} ms, max ${Math.max(...abs).toFixed(2)} ms; cue beats max ${Math.max(...cueErrors).toFixed(2)} ms; ${clicks.length} clicks scheduled (${clicks.filter((c) => c.cancelled).length} taken back by the tempo change)`,
  );
  expect(Math.max(...cueErrors)).toBeLessThanOrEqual(TOLERANCE_MS);
  expect(quantile(abs, 0.99)).toBeLessThanOrEqual(TOLERANCE_MS);
}, 120_000);

test('without the right key nothing of the part page answers: 403 PART_KEY, counted', async () => {
  const metric = async () => {
    const res = await fetch(`${show.controlUrl}/metrics`, { headers: { authorization: `Bearer ${show.token}` } });
    const m = /tutti_bad_input_total\{source="part_key"\} (\d+)/.exec(await res.text());
    return m ? Number(m[1]) : 0;
  };
  const before = await metric();
  const wrong = show.partKey.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
  const tries = [
    '/part',
    '/part/',
    `/part/${wrong}/`,
    `/part/${wrong}/parts.json`,
    `/part/${show.partKey.slice(0, -1)}/`,
    `/part/${show.partKey}x/parts.json`,
    `/part/${wrong}/ws`,
    `/part/${wrong}/sse`,
    `/part/${wrong}/poll`,
    `/part/${wrong}/time`,
  ];
  for (const path of tries) {
    const res = await fetch(`${show.audienceUrl}${path}`, { redirect: 'manual' });
    expect([path, res.status]).toEqual([path, 403]);
    expect((await res.json()).error).toBe('PART_KEY');
  }
  const post = await fetch(`${show.audienceUrl}/part/${wrong}/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'abcdefgh12', part: 'vln' }),
  });
  expect(post.status).toBe(403);
  expect(await metric()).toBe(before + tries.length + 1);
  // The key is not in anything the audience gets.
  for (const path of ['/', '/poll', '/healthz'])
    expect(await (await fetch(`${show.audienceUrl}${path}`)).text()).not.toContain(show.partKey);

  // In the browser: a page opened with a wrong key gets the refusal, not the part page.
  const { page } = await openPage(browser, TABLET);
  const res = await page.goto(`${show.audienceUrl}/part/${wrong}/`);
  expect(res?.status()).toBe(403);
  expect(await page.evaluate(() => typeof window.__part)).toBe('undefined');
  await page.close();
}, 60_000);

test("click set to count-ins only: just the bar before each of the player's entries, counted 1…beats", async () => {
  const { page, problems } = await openPage(browser, TABLET);
  await page.goto(`${show.audienceUrl}/part/${show.partKey}/#vc`);
  await waitInPage(page, () => window.__part.part() === 'vc' && (window.__part.clock()?.total ?? 0) >= 40, undefined, 20_000);
  expect(await text(page, 'part-name')).toBe('Cello');
  await page.click('#click');
  expect(await page.evaluate(() => document.getElementById('click').dataset.mode)).toBe('countin');
  const beats = new Map();
  const onBeat = (b) => beats.set(b.index, b);
  show.show.events.on('beat', onBeat);
  try {
    await control(show, 'POST', '/api/transport', { action: 'play' });
    // The cello's entries: bar 3 (beat index 8) and the cue to everyone at bar 6 (index 20).
    await waitInPage(page, () => window.__part.displays().some((d) => d.bar === 6 && d.beat === 2), undefined, 20_000);
    await control(show, 'POST', '/api/transport', { action: 'stop' });
  } finally {
    show.show.events.off('beat', onBeat);
  }
  const clicks = (await page.evaluate(() => window.__part.clicks())).filter((c) => !c.cancelled);
  expect(clicks.map((c) => [c.index, c.countIn])).toEqual([
    [4, 1],
    [5, 2],
    [6, 3],
    [7, 4],
    [16, 1],
    [17, 2],
    [18, 3],
    [19, 4],
  ]);
  for (const c of clicks) expect(Math.abs(c.at - beats.get(c.index).at)).toBeLessThan(0.01);
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);

test('through a 6 s network outage the part page keeps the beat, the countdown and the click, and shows the cue at its beat', async () => {
  // The demo score: one tempo to the end (so the flywheel covers any outage), no parts — the
  // musicians pick "All parts" — and cues to everyone at bars 1, 17, 33 and 45.
  const demo = await startShow({ autoplay: false });
  const proxy = await startOutageProxy({ targetPort: new URL(demo.audienceUrl).port });
  const { page, problems } = await openPage(browser, TABLET);
  const beats = new Map();
  demo.show.events.on('beat', (b) => beats.set(b.index, b));
  try {
    await page.goto(`${proxy.url}/part/${demo.partKey}/`);
    await waitInPage(page, () => document.querySelectorAll('#part-list button').length === 1);
    await page.click('#part-list button[data-part="*"]');
    await waitInPage(page, () => (window.__part.clock()?.total ?? 0) >= 40, undefined, 20_000);
    await page.click('#click');
    await page.click('#click');
    await control(demo, 'POST', '/api/transport', { action: 'seek', bar: 15 });
    await control(demo, 'POST', '/api/transport', { action: 'play' });
    await waitInPage(page, () => window.__part.displays().some((d) => d.bar === 15 && d.beat === 3));
    const cutAt = await page.evaluate(() => performance.timeOrigin + performance.now());
    proxy.cut();
    await new Promise((r) => setTimeout(r, 6000)); // bar 17 (the cue to everyone) sounds in the middle of it
    const restoreAt = await page.evaluate(() => performance.timeOrigin + performance.now());
    await page.screenshot({ path: `${ARTIFACTS}part-outage.png` });
    proxy.restore();
    await waitInPage(page, () => window.__part.connection().live, undefined, 30_000);
    const { offset } = await trueOffset(page, demo, 15);
    const during = (await page.evaluate(() => window.__part.displays())).filter((d) => d.local > cutAt && d.local < restoreAt);
    const clicks = (await page.evaluate(() => window.__part.clicks())).filter((c) => !c.cancelled);
    const cues = cuesForPart(partCueTable(demo.show.engine.score()).cues, '*');
    // Every beat of the outage on screen (96 bpm: 625 ms a beat), each with the right countdown, on time.
    expect(during.length).toBeGreaterThanOrEqual(Math.floor((restoreAt - cutAt) / 625) - 1);
    for (const d of during) {
      const next = cues.find((c) => c.i >= d.index);
      expect([d.index, d.inBeats]).toEqual([d.index, next.i - d.index]);
      expect(Math.abs(d.local + offset - beats.get(d.index).at)).toBeLessThanOrEqual(TOLERANCE_MS);
    }
    const cue = during.find((d) => d.bar === 17 && d.beat === 1);
    expect(cue?.countdown).toBe('Now');
    // The section changed at bar 17 too, with no network: the page took it from the cue table.
    expect(during.filter((d) => d.bar >= 17).every((d) => d.section === 'B — Breath')).toBe(true);
    expect(during.filter((d) => d.bar < 17).every((d) => d.section?.startsWith('A'))).toBe(true);
    // The click went on through the outage, one per beat, at the beats' server times.
    for (const d of during) expect(Math.abs(clicks.find((c) => c.index === d.index).at - beats.get(d.index).at)).toBeLessThan(0.01);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
    await proxy.close();
    await demo.close();
  }
}, 90_000);

test('a page whose key went stale (the server restarted with another token) says so instead of looking live', async () => {
  const first = await startShow({ autoplay: false, token: 'first-token-for-part-pages' });
  const port = new URL(first.audienceUrl).port;
  const { page, problems } = await openPage(browser, TABLET);
  let second = null;
  try {
    await page.goto(`${first.audienceUrl}/part/${first.partKey}/#*`);
    await waitInPage(page, () => window.__part.part() === '*');
    await first.close();
    second = await startShow({ autoplay: false, token: 'second-token-for-part-pages', port: Number(port) });
    expect(second.partKey).not.toBe(first.partKey);
    // The next report (every 5 s) gets 403: the page shows why and stops pretending.
    await waitInPage(page, () => window.__part.refused() && !document.getElementById('refused').hidden, undefined, 15_000);
    expect(await text(page, 'refused')).toMatch(/no longer valid.*Scan the musicians' QR code/);
    await page.screenshot({ path: `${ARTIFACTS}part-refused.png` });
    expect(problems.filter((p) => !/403|Failed to load resource|ERR_CONNECTION_REFUSED|WebSocket/.test(p))).toEqual([]);
  } finally {
    await page.close();
    await second?.close();
  }
}, 60_000);

test('--max-clients never turns a musician away: the hall is full, the part page still follows the show', async () => {
  const full = await startShow({ autoplay: false, maxClients: 1 });
  const phone = await openWs(full.audienceUrl);
  const { page, problems } = await openPage(browser, TABLET);
  try {
    // The one audience slot is taken: another phone is refused on every transport.
    expect((await fetch(`${full.audienceUrl}/poll`)).status).toBe(503);
    await expect(openWs(full.audienceUrl)).rejects.toThrow(/503/);
    // The part page reads the same stream under its key, past the cap.
    await page.goto(`${full.audienceUrl}/part/${full.partKey}/#*`);
    await waitInPage(page, () => window.__part.connection().live && window.__part.connection().transport === 'ws', undefined, 15_000);
    await control(full, 'POST', '/api/transport', { action: 'play' });
    await waitInPage(page, () => window.__part.displays().length >= 3, undefined, 15_000);
    expect(await page.evaluate(() => window.__part.epoch())).toBe(`${full.show.stream.epoch()}~lean`);
    expect(problems).toEqual([]);
  } finally {
    phone.ws.close();
    await page.close();
    await full.close();
  }
}, 60_000);
