/* global document -- page.waitForFunction callbacks run in the browser */
// The import in the composer's console and the printed bar numbers it brings, in real Chromium
// (tools/chromium.js) against a real show server: opening a .musicxml where a score is opened
// shows what was found and the warnings, "Save … and load" writes the score and loads it; the
// console shows the printed bar beside the running count and jumps by "printed bar, pass"; the
// part page shows the printed bar too. Screenshots go to artifacts/import/. Nothing is faked.

import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startShowServer } from '../../local-server/src/server.js';
import { acquireBrowserLock } from '../audience/support/exclusive.js';
import { launchBrowser, openPage } from '../audience/support/browser.js';
import { waitFor } from '../support/clients.js';

const TOKEN = 'import-ui-token';
const corpus = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'corpus');
const SHOTS = fileURLToPath(new URL('../../artifacts/import/', import.meta.url));
let server;
let browser;
let releaseLock;
let dir;
const pageErrors = [];

beforeAll(async () => {
  releaseLock = await acquireBrowserLock();
  dir = await mkdtemp(path.join(tmpdir(), 'tutti-import-ui-'));
  await mkdir(SHOTS, { recursive: true });
  server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token: TOKEN });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await releaseLock?.();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const api = (route, body) =>
  fetch(`${server.controlUrl}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

test('the import API: a preview writes nothing, save writes once, never over a file without force, bad files are 400', async () => {
  const input = path.join(dir, 'api-volta.musicxml');
  await copyFile(path.join(corpus, 'musicxml', 'test_repeat_volta_simple.musicxml'), input);
  const preview = await (await api('/api/score/import', { path: input })).json();
  expect(preview).toMatchObject({ ok: true, kind: 'MusicXML', out: path.join(dir, 'api-volta.score.json'), exists: false, saved: false });
  expect(preview.score).toMatchObject({
    bars: 4,
    printedBars: [
      { bar: 1, number: 1 },
      { bar: 3, number: 1, pass: 2 },
      { bar: 4, number: 3 },
    ],
  });
  expect(preview.warnings).toEqual([{ measure: '1', message: expect.stringMatching(/no tempo/) }]);
  await expect(readFile(preview.out)).rejects.toThrow(/ENOENT/);
  expect((await api('/api/score/import', { path: input, save: true })).status).toBe(200);
  const again = await api('/api/score/import', { path: input, save: true });
  expect(again.status).toBe(409);
  expect((await again.json()).message).toMatch(/exists; pass --force/);
  expect((await api('/api/score/import', { path: input, save: true, force: true })).status).toBe(200);
  const bad = await api('/api/score/import', { path: path.join(corpus, 'SOURCES.md') });
  expect(bad.status).toBe(400);
  expect(await bad.json()).toMatchObject({ error: 'IMPORT_FAILED', message: expect.stringMatching(/imports MusicXML/) });
});

test('console: open a .musicxml, see summary and warnings, save and load; printed bars shown and jumped to; part page too', async () => {
  const input = path.join(dir, 'volta.musicxml');
  await copyFile(path.join(corpus, 'musicxml', 'test_repeat_volta_simple.musicxml'), input);
  const { page, problems } = await openPage(browser, {
    viewport: { width: 1400, height: 1000 },
    isMobile: false,
    hasTouch: false,
    deviceScaleFactor: 1,
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${server.controlUrl}/?token=${TOKEN}`);
  await page.waitForFunction(() => document.getElementById('conn-badge')?.textContent === 'Live');

  await page.fill('[data-testid=score-path]', input);
  await page.click('[data-testid=load-score]');
  await page.waitForSelector('[data-testid=import-summary]');
  const summary = await page.textContent('[data-testid=import-summary]');
  expect(summary).toMatch(/4 played \(3 written; repeats and endings played out\)/);
  expect(summary).toMatch(/! measure 1 has no tempo/);
  expect(server.status().score.id).toBe('demo'); // nothing loaded before saving
  await page.screenshot({ path: path.join(SHOTS, '01-import-preview.png'), fullPage: true });

  await page.click('[data-testid=import-save]');
  await page.waitForFunction(() => document.getElementById('top-title')?.textContent === 'test_repeat_volta_simple');
  expect(server.status().score.id).toBe('test-repeat-volta-simple');
  expect(JSON.parse(await readFile(path.join(dir, 'volta.score.json'), 'utf8')).bars).toBe(4);

  // Jump by printed bar: "1, 2" is printed bar 1 the second time = performance bar 3.
  await page.fill('[data-testid=jump-printed]', '1, 2');
  await page.click('#jump-form button[type=submit]');
  await waitFor(() => server.status().position.bar === 3, 5000, 'seek to bar 3');
  await page.waitForFunction(() => document.querySelector('[data-testid=pos-printed]')?.textContent === 'printed 1 (2nd time)');
  expect(await page.textContent('[data-testid=pos-bar]')).toBe('3');
  await page.screenshot({ path: path.join(SHOTS, '02-printed-bar.png'), fullPage: true });

  // The part page's big number is the printed bar, its pass and the running bar small below (issue 40 item 16).
  const part = await openPage(browser, { viewport: { width: 800, height: 1100 } });
  await part.page.goto(`${server.audienceUrl}/part/${server.partKey}/#*`);
  await part.page.waitForFunction(
    () =>
      document.getElementById('bar')?.textContent === '1' &&
      document.getElementById('printed-bar')?.textContent === '2nd time · running bar 3',
    undefined,
    {
      timeout: 15_000,
    },
  );
  expect(await part.page.isVisible('#printed-bar')).toBe(true);
  await part.page.screenshot({ path: path.join(SHOTS, '03-part-page.png') });
  // Bar 4 is printed bar 3, which sounds once: no pass shown.
  await api('/api/transport', { action: 'seek', bar: 4 });
  await part.page.waitForFunction(
    () => document.getElementById('bar')?.textContent === '3' && document.getElementById('printed-bar')?.textContent === 'running bar 4',
    undefined,
    {
      timeout: 15_000,
    },
  );
  await page.waitForFunction(() => document.querySelector('[data-testid=pos-printed]')?.textContent === 'printed 3');
  expect(part.problems).toEqual([]);
  expect(problems).toEqual([]);
  await part.context.close();
}, 60_000);

test('console: a MIDI file whose pickup the file cannot show (LilyPond, one meter) gets its Pickup typed in, imported again and saved with it', async () => {
  const input = path.join(dir, 'march.midi');
  await copyFile(path.join(corpus, '..', 'notation-writers', 'upbeat-one-meter.midi'), input);
  const { page, context, problems } = await openPage(browser, {
    viewport: { width: 1400, height: 1000 },
    isMobile: false,
    hasTouch: false,
    deviceScaleFactor: 1,
  });
  await page.goto(`${server.controlUrl}/?token=${TOKEN}`);
  await page.waitForFunction(() => document.getElementById('conn-badge')?.textContent === 'Live');
  await page.fill('[data-testid=score-path]', input);
  await page.click('[data-testid=load-score]');
  await page.waitForSelector('[data-testid=import-pickup]');
  expect(await page.textContent('[data-testid=import-summary]')).toContain('Time signatures: 4/4 (bar 1)\n');

  await page.fill('[data-testid=import-pickup]', '0.5');
  await page.click('[data-testid=import-again]');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid=import-summary]')?.textContent.includes('1/8 (bar 1) · 4/4 (bar 2)'),
  );
  expect(await page.inputValue('[data-testid=import-pickup]')).toBe('0.5');
  await page.screenshot({ path: path.join(SHOTS, '04-import-pickup.png'), fullPage: true });

  await page.click('[data-testid=import-save]');
  await page.waitForFunction(() => document.getElementById('top-title')?.textContent === 'Upbeat March');
  // The score card gives the piece's tempo, not the eighth pickup's 224.
  const tempo = await page.evaluate(
    () => [...document.querySelectorAll('#score-meta dt')].find((dt) => dt.textContent === 'Tempo')?.nextElementSibling?.textContent,
  );
  expect(tempo).toBe('112 bpm');
  const saved = JSON.parse(await readFile(path.join(dir, 'march.score.json'), 'utf8'));
  expect(saved.meter).toEqual([
    { bar: 1, beats: 1, unit: 8 },
    { bar: 2, beats: 4, unit: 4 },
  ]);
  expect(saved.printedBars).toEqual([{ bar: 1, number: 0 }]);
  expect(problems).toEqual([]);
  await context.close();
}, 60_000);

test("console: a fast 6/8 (music21's Presto) is shown as 6/8 counted in 2 on the score card and the import summary", async () => {
  const input = path.join(dir, 'presto.musicxml');
  await copyFile(path.join(corpus, '..', 'compound-meter', 'presto-six-eight.musicxml'), input);
  const { page, context, problems } = await openPage(browser, {
    viewport: { width: 1400, height: 1000 },
    isMobile: false,
    hasTouch: false,
    deviceScaleFactor: 1,
  });
  await page.goto(`${server.controlUrl}/?token=${TOKEN}`);
  await page.waitForFunction(() => document.getElementById('conn-badge')?.textContent === 'Live');
  await page.fill('[data-testid=score-path]', input);
  await page.click('[data-testid=load-score]');
  await page.waitForSelector('[data-testid=import-save]');
  expect(await page.textContent('[data-testid=import-summary]')).toContain('Time signatures: 6/8 counted in 2 (bar 1)\n');
  await page.click('[data-testid=import-save]');
  await page.waitForFunction(() => document.getElementById('top-title')?.textContent === 'Presto in 6/8');
  const card = (name) =>
    page.evaluate(
      (dt) => [...document.querySelectorAll('#score-meta dt')].find((d) => d.textContent === dt)?.nextElementSibling?.textContent,
      name,
    );
  expect(await card('Meter')).toBe('6/8 in 2');
  expect(await card('Tempo')).toBe('138 bpm');
  expect(problems).toEqual([]);
  await context.close();
}, 60_000);
