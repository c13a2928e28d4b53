// The composer's console in Firefox ESR and WebKitGTK (Safari's engine), as `tutti serve` offers
// it: "Console (a browser on this machine)" is whatever browser the composer opens, not only the
// desktop app's Chromium (test/app/console-ui.test.js covers that). Per engine, against a real
// show server: the console goes Live with the token, Play / Jump / Tempo and the Space key move
// the show, the bar on screen follows the server, a MIDI file is imported with its Pickup typed
// in and loaded, and the log lists the actions. Screenshots: artifacts/browsers/.
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineCanRun, launchEngine, waitInPage } from './support/engines.js';
import { startShow } from '../support/show.js';
import { waitFor } from '../support/clients.js';
import { typeInto } from './support/type-into.js';

const ARTIFACTS = fileURLToPath(new URL('../../artifacts/browsers/', import.meta.url));
const MARCH = fileURLToPath(new URL('../fixtures/notation-writers/upbeat-one-meter.midi', import.meta.url));
const ENGINES = /** @type {const} */ (['firefox', 'webkit']);

describe.each(ENGINES)('%s', (name) => {
  if (!engineCanRun(name)) return;
  const shot = (what) => join(ARTIFACTS, `${name}-console-${what}.png`);
  let page;
  let show;
  let tmp;
  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    tmp = await mkdtemp(join(tmpdir(), `tutti-console-${name}-`));
    [show, page] = await Promise.all([startShow({ autoplay: false }), launchEngine(name, { laptop: true })]);
  }, 90_000);
  afterAll(async () => {
    await page?.close();
    await show?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  test('opens with the token and goes Live; Play starts the show and the bar on screen follows it', async () => {
    await page.goto(`${show.controlUrl}/?token=test-token`);
    await waitInPage(page, () => document.getElementById('conn-badge')?.textContent === 'Live', undefined, 15_000, 'Live');
    expect(show.status().transport).toBe('stopped');
    await page.click('[data-testid=play]');
    await waitFor(() => show.status().transport === 'playing', 5000, 'playing');
    await waitFor(() => show.status().position.bar >= 2, 10_000, 'bar 2');
    const shown = await waitInPage(
      page,
      () =>
        Number(document.querySelector('[data-testid=pos-bar]')?.textContent) >= 2 &&
        Number(document.querySelector('[data-testid=pos-bar]').textContent),
    );
    expect(Math.abs(shown - show.status().position.bar)).toBeLessThanOrEqual(1);
    await page.screenshot(shot('playing'));
  }, 60_000);

  test('Jump and Tempo move the show; Space pauses it', async () => {
    await typeInto(page, '#jump-bar', '12');
    await page.click('#jump-form button[type=submit]');
    await waitFor(() => show.status().position.bar >= 12 && show.status().position.bar <= 13, 5000, 'jump to bar 12');
    await typeInto(page, '#tempo-input', '90');
    await page.click('#tempo-form button[type=submit]');
    await waitFor(() => show.status().tempo === 90, 5000, 'tempo 90');
    await waitInPage(page, () => document.querySelector('[data-testid=pos-tempo]')?.textContent === '90');
    // The keyboard shortcut, from the page body (not a field).
    await page.evaluate(() => {
      /** @type {HTMLElement} */ (document.activeElement)?.blur();
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', code: 'Space', bubbles: true }));
      return true;
    });
    await waitFor(() => show.status().transport === 'paused', 5000, 'paused by Space');
    await waitInPage(page, () => document.querySelector('[data-testid=transport-state]')?.textContent.toLowerCase().includes('pause'));
  }, 60_000);

  test('a MIDI file: the import preview, its Pickup typed in, saved and loaded', async () => {
    const midi = join(tmp, 'march.midi');
    await copyFile(MARCH, midi);
    await typeInto(page, '[data-testid=score-path]', midi);
    await page.click('[data-testid=load-score]');
    await waitInPage(
      page,
      () => document.querySelector('[data-testid=import-summary]')?.textContent.includes('4/4 (bar 1)'),
      undefined,
      15_000,
      'the preview',
    );
    await typeInto(page, '[data-testid=import-pickup]', '0.5');
    await page.click('[data-testid=import-again]');
    await waitInPage(
      page,
      () => document.querySelector('[data-testid=import-summary]')?.textContent.includes('1/8 (bar 1) · 4/4 (bar 2)'),
      undefined,
      15_000,
      'the preview with the pickup',
    );
    await page.screenshot(shot('import'));
    await page.click('[data-testid=import-save]');
    await waitFor(() => show.status().score?.title === 'Upbeat March', 15_000, 'the imported score loaded');
    await waitInPage(page, () => document.getElementById('top-title')?.textContent === 'Upbeat March');
    expect(show.status().score.bars).toBe(5);
  }, 60_000);

  test('the log lists what was done', async () => {
    const log = await waitInPage(page, () => {
      const text = document.getElementById('log-list')?.textContent ?? '';
      return text.includes('transport: play') && text.includes('loaded score') && text;
    });
    expect(log).toMatch(/tempo/);
    await page.screenshot(shot('log'));
  }, 30_000);
});
