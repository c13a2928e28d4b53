// Attack: script and foreign fetches through the score's media and colours, on the audience
// origin (the page every phone in the hall has open). Before: an SVG in the score's media ran
// its script when opened from /media/ on the venue (same origin as the page), the page had no
// CSP, and a tile colour `url(http://…)` made every phone fetch a foreign host. Now media
// carries the sandbox CSP (core/protocol/media.js, same as the edge), the page its own strict CSP
// (core/protocol/page-csp.js), and only #rgb/#rrggbb colours pass the validator and the page
// (core/protocol/colour.js). Real show server, real Chromium, a real foreign HTTP server.

import { createServer } from 'node:http';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../local-server/src/cli.js';
import { validateScore } from '#core/score/validate.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { launchBrowser, openPage, startShow, waitInPage } from '../audience/support/browser.js';
import { acquireBrowserLock } from '../audience/support/exclusive.js';
import { startEdge, waitFor } from '../edge/helpers.js';
import { freePort } from '../support/free-port.js';

const EVIL_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
<script>document.documentElement.setAttribute('data-ran', 'yes'); fetch('/healthz?svg-script-ran');</script>
<rect width="10" height="10" fill="red"/></svg>`;

let work;
let browser;
let release;
let foreign;
let foreignHits = [];

/** A score with an SVG image asset and a tile grid; `tileColour` is written as given. */
function scoreJson(tileColour) {
  return {
    format: 'tutti-score/1',
    id: 'svg',
    title: 'SVG',
    bars: 8,
    meter: [{ bar: 1, beats: 4, unit: 4 }],
    tempo: [{ at: { bar: 1 }, bpm: 120 }],
    assets: [{ id: 'pic', kind: 'image', src: 'media/evil.svg' }],
    view: { text: 'hello', image: 'pic', data: { tiles: { a: { c: '#123456', s: 1 }, b: { c: tileColour, s: 2 } } } },
  };
}

beforeAll(async () => {
  release = await acquireBrowserLock();
  work = await mkdtemp(join(tmpdir(), 'tutti-svg-'));
  await mkdir(join(work, 'media'));
  await writeFile(join(work, 'media', 'evil.svg'), EVIL_SVG);
  await writeFile(join(work, 'ok.score.json'), JSON.stringify(scoreJson('#abcdef')));
  foreign = createServer((req, res) => {
    foreignHits.push(req.url);
    res.writeHead(200, { 'content-type': 'image/png' }).end();
  });
  await new Promise((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => foreign?.close(resolve));
  await rm(work, { recursive: true, force: true });
  await release?.();
});

test('script-in-media: an SVG opened from /media/ does not run its script on the audience origin', async () => {
  const show = await startShow({ scorePath: join(work, 'ok.score.json') });
  try {
    const { context, page } = await openPage(browser);
    const asked = [];
    page.on('request', (r) => asked.push(r.url()));
    await page.goto(`${show.audienceUrl}/media/media/evil.svg`);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-ran'))).toBeNull();
    expect(asked.filter((u) => u.includes('svg-script-ran'))).toEqual([]);
    await context.close();

    const head = await fetch(`${show.audienceUrl}/media/media/evil.svg`);
    await head.arrayBuffer();
    expect(head.headers.get('content-type')).toBe('image/svg+xml');
    // The same sandbox policy the edge sends (core/protocol/media.js).
    expect(head.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox");
  } finally {
    await show.close();
  }
}, 60_000);

test('script-in-media: the audience page has its own strict CSP and still runs without console errors', async () => {
  const show = await startShow({ scorePath: join(work, 'ok.score.json') });
  try {
    const res = await fetch(`${show.audienceUrl}/`);
    const html = await res.text();
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(html).toContain('<meta http-equiv="Content-Security-Policy"');

    const { context, page, problems } = await openPage(browser);
    await page.goto(`${show.audienceUrl}/`);
    await waitInPage(page, () => window.__tutti.connection().live && document.querySelectorAll('#tiles span').length === 2);
    // The inline-script probe: a CSP without 'unsafe-inline' refuses it (and says so on the console).
    const inline = await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.head.append(s);
      return Boolean(window.__inlineRan);
    });
    expect(inline).toBe(false);
    expect(problems.filter((p) => !/Content Security Policy/.test(p))).toEqual([]);
    await context.close();
  } finally {
    await show.close();
  }
}, 60_000);

test('tile-colour-url: tutti validate refuses a tile colour that is not a colour', async () => {
  const file = join(work, 'bad.score.json');
  const port = foreign.address().port;
  await writeFile(file, JSON.stringify(scoreJson(`url(http://127.0.0.1:${port}/tile.png)`)));
  const lines = [];
  const code = await runCli(['validate', file], { out: (s) => lines.push(s), err: (s) => lines.push(s) });
  expect(code).toBe(1);
  expect(lines.join('\n')).toMatch(/view\.data\.tiles\.b\.c: expected a tile colour written #rgb or #rrggbb/);
  // A cue's tile patch is checked the same way; null (remove) stays fine.
  const cues = {
    ...scoreJson('#fff'),
    cues: [{ at: { bar: 2 }, view: { data: { tiles: { a: { c: null }, b: { c: 'red; background-image: url(x)' } } } } }],
  };
  const result = validateScore(cues);
  expect(result.problems).toEqual([{ path: 'cues[0].view.data.tiles.b.c', message: expect.stringMatching(/expected a tile colour/) }]);
  // Editors checking against scores/score.schema.json flag it too.
  const schema = JSON.parse(await readFile(new URL('../../scores/score.schema.json', import.meta.url), 'utf8'));
  const check = new Ajv2020({ allErrors: true }).compile(schema);
  expect(check(cues)).toBe(false);
  expect(check.errors.map((e) => e.instancePath)).toContain('/cues/0/view/data/tiles/b/c');
  expect(check(scoreJson('#abcdef'))).toBe(true);
});

test('tile-colour-url: the page applies only #rgb/#rrggbb colours, so a phone never fetches a foreign host', async () => {
  const show = await startShow({ scorePath: join(work, 'ok.score.json') });
  try {
    // A state the validator would refuse (a bug elsewhere, a hostile publisher): the page must still not fetch.
    const port = foreign.address().port;
    const checked = validateScore(JSON.parse(await readFile(join(work, 'ok.score.json'), 'utf8')));
    const score = structuredClone(checked.score);
    score.view.data.tiles.b.c = `url(http://127.0.0.1:${port}/tile.png)`;
    score.view.color = `url(http://127.0.0.1:${port}/stage.png)`;
    show.show.load({ score, dir: work, path: join(work, 'ok.score.json') });
    foreignHits = [];

    const { context, page } = await openPage(browser);
    const asked = [];
    page.on('request', (r) => asked.push(r.url()));
    await page.goto(`${show.audienceUrl}/`);
    await waitInPage(page, () => window.__tutti.connection().live && document.querySelectorAll('#tiles span').length === 2);
    await page.waitForTimeout(500);
    const backgrounds = await page.evaluate(() => [...document.querySelectorAll('#tiles span')].map((n) => n.style.background));
    expect(backgrounds[0]).toMatch(/rgb\(18, 52, 86\)/);
    expect(backgrounds[1]).toBe('');
    expect(asked.filter((u) => u.includes(`:${port}/`))).toEqual([]);
    expect(foreignHits).toEqual([]);
    await context.close();
  } finally {
    await show.close();
  }
}, 60_000);

test('script-in-media: the same page served by the edge (real workerd) carries the policy and runs, live, without console errors; its SVG media is sandboxed too', async () => {
  const edge = await startEdge({ port: await freePort() });
  const show = await startShow({ scorePath: join(work, 'ok.score.json'), edgeUrl: edge.url, edgeToken: edge.token });
  try {
    await waitFor(() => show.status().edge.media?.uploaded === 1, { timeoutMs: 20_000, what: 'the SVG on the edge' });
    const html = await (await fetch(`${edge.url}/`)).text();
    expect(html).toContain('<meta http-equiv="Content-Security-Policy"');
    const { context, page, problems } = await openPage(browser);
    await page.goto(`${edge.url}/`);
    await waitInPage(
      page,
      () => window.__tutti.connection().live && document.querySelectorAll('#tiles span').length === 2,
      undefined,
      30_000,
    );
    expect(problems).toEqual([]);
    await page.goto(`${edge.url}/media/media/evil.svg`);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-ran'))).toBeNull();
    await context.close();
  } finally {
    await show.close();
    await edge.stop();
  }
}, 90_000);
