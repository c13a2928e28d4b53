// The composer's console in real Chromium (playwright-core, tools/chromium.js) against a real
// show server on port 0: token handling, a broken score's problems before anything plays,
// loading a score, play, bar:beat advancing, a viewer appearing, tempo override, an OSC target
// receiving a real UDP /tutti/ping, keyboard shortcuts. Screenshots go to artifacts/console/.
// Nothing is faked here.

import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import dgram from 'node:dgram';
import { Server, Message, encode, decode } from 'node-osc';
import { startShowServer } from '../../local-server/src/server.js';
import { openWs, waitFor } from '../support/clients.js';
import { acquireBrowserLock } from '../audience/support/exclusive.js';
import { launchBrowser } from '../audience/support/browser.js';

const TOKEN = 'console-test-token';
const score = (name) => fileURLToPath(new URL(`../../scores/${name}`, import.meta.url));
const SHOTS = fileURLToPath(new URL('../../artifacts/console/', import.meta.url));

let server;
let browser;
let page;
let releaseLock;
const pageErrors = [];

beforeAll(async () => {
  // Browser suites take turns (the audience sync test measures page timer accuracy on 2 cores).
  releaseLock = await acquireBrowserLock();
  mkdirSync(SHOTS, { recursive: true });
  server = await startShowServer({ scorePath: score('demo.score.json'), host: '127.0.0.1', port: 0, controlPort: 0, token: TOKEN });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
  // A CSP violation or a failed module load shows up as a console error.
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
  });
}, 180_000); // may wait for another browser suite to finish

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await releaseLock?.();
});

const text = (testid) => page.textContent(`[data-testid=${testid}]`);
async function shot(name) {
  await page.evaluate(() => window.scrollTo(0, 0)); // the sticky top bar belongs at the top of a full-page shot
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
}

test('without a token the page asks for one and the API refuses', async () => {
  const bare = await browser.newPage();
  try {
    await bare.goto(`${server.controlUrl}/`);
    await bare.waitForSelector('#auth:not([hidden])');
    const res = await fetch(`${server.controlUrl}/api/console`);
    expect(res.status).toBe(401);
  } finally {
    await bare.close();
  }
});

test('a wrong token brings the token dialog back with an error, not a dead live page', async () => {
  const wrong = await browser.newPage();
  try {
    await wrong.goto(`${server.controlUrl}/?token=not-the-token`);
    await wrong.waitForSelector('#auth:not([hidden])', { timeout: 10_000 });
    expect(await wrong.textContent('#auth-error')).toMatch(/The server refused this token/);
    expect(await wrong.isVisible('#auth-error')).toBe(true);
    // Typing the right token connects.
    await wrong.fill('#auth-token', TOKEN);
    await wrong.click('#auth-form button[type=submit]');
    await wrong.waitForFunction(() => document.getElementById('conn-badge')?.textContent === 'Live', undefined, { timeout: 10_000 });
    expect(await wrong.isHidden('#auth')).toBe(true);
  } finally {
    await wrong.close();
  }
});

test('the probe badge is not green before it has measured anything', async () => {
  const quiet = await startShowServer({ scorePath: score('demo.score.json'), host: '127.0.0.1', port: 0, controlPort: 0, token: TOKEN });
  const probePage = await browser.newPage();
  try {
    await probePage.goto(`${quiet.controlUrl}/?token=${TOKEN}`);
    // Stopped: no updates, so no samples, whatever the probe's connection state.
    await probePage.waitForFunction(() => /no samples yet/.test(document.getElementById('probe-state')?.textContent ?? ''), undefined, {
      timeout: 10_000,
    });
    expect(await probePage.getAttribute('#probe-state', 'class')).not.toMatch(/tag-ok/);
    quiet.show.engine.play();
    await probePage.waitForFunction(() => document.getElementById('probe-state')?.classList.contains('tag-ok'), undefined, {
      timeout: 10_000,
    });
    expect(await probePage.textContent('#probe-state')).toMatch(/probe: [1-9]\d* samples/);
  } finally {
    await probePage.close();
    await quiet.close();
  }
});

test('the join URL wraps between host and port, never inside the port', async () => {
  const narrow = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await narrow.goto(`${server.controlUrl}/?token=${TOKEN}`);
    await narrow.waitForFunction(() => /:\d+\/$/.test(document.getElementById('audience-url')?.textContent ?? ''));
    const layout = await narrow.evaluate(() => {
      const link = /** @type {HTMLElement} */ (document.getElementById('audience-url'));
      /** @type {HTMLElement} */ (link.parentElement).style.width = '190px'; // narrower than the URL: it must wrap
      const url = link.textContent ?? '';
      const port = /:(\d+)\/$/.exec(url);
      const start = url.length - port[0].length + 1;
      // A range over the port's digits, across whatever text nodes hold them.
      const range = document.createRange();
      let offset = 0;
      const walker = document.createTreeWalker(link, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const length = node.textContent?.length ?? 0;
        if (start >= offset && start < offset + length) range.setStart(node, start - offset);
        if (start + port[1].length <= offset + length && start + port[1].length > offset)
          range.setEnd(node, start + port[1].length - offset);
        offset += length;
      }
      const lines = new Set([...link.getClientRects()].map((r) => Math.round(r.top)));
      const spanLines = new Set([...link.querySelectorAll('*')].flatMap((el) => [...el.getClientRects()].map((r) => Math.round(r.top))));
      const portLines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      return {
        lines: Math.max(lines.size, spanLines.size, Math.round(link.getBoundingClientRect().height / 20)),
        portLines: portLines.size,
      };
    });
    expect(layout.lines).toBeGreaterThan(1); // it did wrap
    expect(layout.portLines).toBe(1); // but not inside the port
  } finally {
    await narrow.close();
  }
});

test('the console page is served with a strict CSP and no inline code', async () => {
  const res = await fetch(`${server.controlUrl}/`);
  expect(res.status).toBe(200);
  const csp = res.headers.get('content-security-policy');
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  const html = await res.text();
  expect(html).not.toMatch(/<script>(?!<)/); // every script has a src
  expect(html).not.toMatch(/\sstyle="/);
  // Paths are looked up in the in-memory file list, never joined to a folder.
  expect((await fetch(`${server.controlUrl}/console/..%2F..%2F..%2Fpackage.json`)).status).toBe(404);
  expect((await fetch(`${server.controlUrl}/console/main.js`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
});

test('the page gets the SSE parser, the backoff rule and the editor modules from core, and no other core file', async () => {
  const parser = await fetch(`${server.controlUrl}/core/protocol/sse-parser.js`);
  expect(parser.status).toBe(200);
  expect(parser.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(await parser.text()).toContain('export function createSseParser');
  expect((await fetch(`${server.controlUrl}/core/util/backoff.js`)).status).toBe(200);
  expect((await fetch(`${server.controlUrl}/core/score/printed-bars.js`)).status).toBe(200); // printed bar numbers (docs/reference/score-format.md)
  // The editor validates with `tutti validate`'s own module; its `#core/` imports point at /core/.
  const validator = await (await fetch(`${server.controlUrl}/core/score/validate-cues.js`)).text();
  expect(validator).toContain("from '/core/protocol/colour.js'");
  expect(validator).not.toContain('#core/');
  for (const path of ['/core/import/merge.js', '/core/..%2Fpackage.json', '/core/']) {
    expect([path, (await fetch(`${server.controlUrl}${path}`)).status]).toEqual([path, 404]);
  }
});

test('opens with the token, then hides it from the address bar', async () => {
  await page.goto(`${server.controlUrl}/?token=${TOKEN}`);
  await page.waitForFunction(() => document.getElementById('conn-badge')?.textContent === 'Live');
  expect(page.url()).toBe(`${server.controlUrl}/`);
  expect(await page.textContent('#top-title')).toBe('Tutti — a short demo');
  await page.waitForSelector('#qr[src^="data:image/svg+xml"]');
  // This server listens on 127.0.0.1 only: the QR code must not promise a LAN address phones cannot reach.
  expect(await page.textContent('#audience-url')).toBe(`${server.audienceUrl}/`);
  expect(await text('transport-state')).toBe('Stopped');
  await shot('01-opened');
});

test('a broken score shows every problem with its path, and nothing loads or plays', async () => {
  await page.fill('[data-testid=score-path]', score('broken/five-problems.score.json'));
  await page.click('[data-testid=load-score]');
  await page.waitForSelector('[data-testid=score-problems]:not([hidden]) li');
  const problems = await page.$$eval('[data-testid=score-problems] li', (lis) => lis.map((li) => li.textContent));
  expect(problems).toHaveLength(5);
  expect(problems.join('\n')).toContain('cues[0].at.bar');
  expect(problems.join('\n')).toContain("did you mean 'composer'");
  expect(await page.textContent('[data-testid=score-problems] h4')).toMatch(/5 problems .* nothing was loaded/);
  expect(server.status().score.id).toBe('demo');
  expect(server.status().transport).toBe('stopped');
  await shot('02-broken-score');
});

test('loads a good score, plays, and bar:beat advances', async () => {
  await page.fill('[data-testid=score-path]', score('tidal-lines.score.json'));
  await page.click('[data-testid=load-score]');
  await page.waitForFunction(() => document.getElementById('top-title')?.textContent === 'Tidal Lines');
  expect(server.status().score.id).toBe('tidal-lines');
  await page.waitForSelector('#recent-list button');

  await page.click('[data-testid=play]');
  await page.waitForFunction(() => document.querySelector('[data-testid=transport-state]')?.textContent === 'Playing');
  const first = `${await text('pos-bar')}:${await text('pos-beat')}`;
  await page.waitForFunction(
    (was) =>
      `${document.querySelector('[data-testid=pos-bar]')?.textContent}:${document.querySelector('[data-testid=pos-beat]')?.textContent}` !==
      was,
    first,
    { timeout: 5000 },
  );
  // It keeps pace with the server: within a beat or two of the engine's position.
  const shown = Number(await text('pos-bar')) * 100 + Number(await text('pos-beat'));
  const engine = server.status().position;
  expect(Math.abs(engine.bar * 100 + engine.beat - shown)).toBeLessThan(100);
});

test('a viewer joining shows up in the audience panel', async () => {
  const viewer = await openWs(server.audienceUrl);
  try {
    await page.waitForFunction(() => document.querySelector('[data-testid=viewers-total]')?.textContent === '1', null, { timeout: 5000 });
    expect(await page.textContent('#v-local-split')).toContain('ws 1');
    // The latency probe fills p50/p99 while the show plays.
    await page.waitForFunction(() => /\d/.test(document.getElementById('lat-p99')?.textContent ?? ''), null, { timeout: 8000 });
    await page.waitForTimeout(3000); // a few seconds of chart
    await shot('03-playing-with-viewer');
  } finally {
    viewer.ws.close();
  }
  await page.waitForFunction(() => document.querySelector('[data-testid=viewers-total]')?.textContent === '0', null, { timeout: 5000 });
});

test('tempo override from the console reaches the engine', async () => {
  await page.fill('[data-testid=tempo-input]', '150');
  await page.press('[data-testid=tempo-input]', 'Enter');
  await waitFor(() => server.status().tempo === 150, 3000, 'tempo 150 on the server');
  await page.waitForFunction(() => document.querySelector('[data-testid=pos-tempo]')?.textContent === '150');
  expect(await page.isVisible('#tempo-override')).toBe(true);
  await page.click('#tempo-reset');
  await waitFor(() => server.status().tempoOverride === false, 3000, 'written tempo again');
});

test('loading a score while the show plays asks first: "Keep playing" keeps it, "Stop and load" loads', async () => {
  expect(server.status().transport).toBe('playing');
  await page.fill('[data-testid=score-path]', score('tidal-lines.score.json'));
  await page.click('[data-testid=load-score]');
  await page.waitForSelector('#score-confirm:not([hidden])');
  await page.click('#cancel-load');
  await page.waitForSelector('#score-confirm', { state: 'hidden' });
  expect(server.status().transport).toBe('playing');

  await page.click('[data-testid=load-score]');
  await page.waitForSelector('#score-confirm:not([hidden])');
  await page.click('#confirm-load');
  await page.waitForFunction(() => document.querySelector('[data-testid=score-problems] h4')?.textContent?.startsWith('✓ Loaded'));
  expect(server.status().transport).toBe('stopped');
  // Playing again for the tests that follow.
  await page.click('[data-testid=play]');
  await waitFor(() => server.status().transport === 'playing', 3000, 'playing again');
});

test('an OSC target added in the console receives a real UDP /tutti/ping on "Test"', async () => {
  const received = [];
  const osc = await new Promise((resolve) => {
    const s = new Server(0, '127.0.0.1', () => resolve(s));
  });
  osc.on('message', (m) => received.push(m));
  try {
    await page.fill('[data-testid=osc-host]', '127.0.0.1');
    await page.fill('[data-testid=osc-port]', String(osc.port));
    await page.click('[data-testid=osc-add]');
    const row = `[data-target="127.0.0.1:${osc.port}"]`;
    await page.waitForSelector(row);
    expect(server.osc.list().map((t) => t.port)).toContain(osc.port);
    await page.click(`${row} [data-testid=osc-test]`);
    await waitFor(() => received.find((m) => m[0] === '/tutti/ping'), 3000, '/tutti/ping over UDP');
    await page.waitForSelector(`${row} .ok`);
    expect(await page.textContent(`${row} .ok`)).toMatch(/ping sent/);
    await page.waitForTimeout(1200); // the next stats tick shows packets sent (beats are flowing)
    await shot('04-osc-target');
  } finally {
    osc.close();
  }
});

test('the OSC panel: a target is added with a mode, its mode and offset change in place, an echoing target shows its round trip', async () => {
  // A receiver that answers /tutti/ping to the sender, as docs/how-to/connect-osc-tools.md#on-time-in-every-receiver describes.
  const echo = dgram.createSocket('udp4');
  await new Promise((r) => echo.bind(0, '127.0.0.1', r));
  echo.on('message', (bytes, rinfo) => {
    const message = decode(bytes);
    if (message.address === '/tutti/ping') echo.send(encode(new Message('/tutti/ping', message.args[0].value)), rinfo.port, rinfo.address);
  });
  const { port } = echo.address();
  const target = () => server.osc.list().find((t) => t.port === port);
  const row = `[data-target="127.0.0.1:${port}"]`;
  try {
    await page.fill('[data-testid=osc-host]', '127.0.0.1');
    await page.fill('[data-testid=osc-port]', String(port));
    await page.selectOption('[data-testid=osc-mode]', 'ahead');
    await page.click('[data-testid=osc-add]');
    await page.waitForSelector(row);
    expect(target()).toMatchObject({ mode: 'ahead', offsetMs: 0 });
    expect(await page.inputValue(`${row} [data-testid=osc-target-mode]`)).toBe('ahead');

    await page.selectOption(`${row} [data-testid=osc-target-mode]`, 'plain');
    await waitFor(() => target()?.mode === 'plain', 3000, 'mode changed from the panel');
    await page.fill(`${row} [data-testid=osc-target-offset]`, '-20');
    await page.press(`${row} [data-testid=osc-target-offset]`, 'Enter');
    await waitFor(() => target()?.offsetMs === -20, 3000, 'offset changed from the panel');
    await page.waitForTimeout(1200); // a stats tick re-renders the panel: the row and its values stay
    expect(await page.inputValue(`${row} [data-testid=osc-target-offset]`)).toBe('-20');

    await page.click(`${row} [data-testid=osc-test]`);
    await page.waitForSelector(`${row} [data-testid=osc-rtt]`);
    expect(await page.textContent(`${row} [data-testid=osc-rtt]`)).toMatch(/round trip \d+\.\d ms/);
    await shot('04b-osc-modes');
  } finally {
    await page.click(`${row} .btn-ghost`).catch(() => {});
    echo.close();
  }
});

test("the OSC panel warns beside a target when its mode goes wrong there: mode=ahead to Sonic Pi's cue port (4560)", async () => {
  // Stopped, so no beat goes out: a Sonic Pi on this machine is left alone.
  const wasPlaying = server.status().transport === 'playing';
  server.show.engine.stop();
  const row = '[data-target="127.0.0.1:4560"]';
  try {
    await page.fill('[data-testid=osc-host]', '127.0.0.1');
    await page.fill('[data-testid=osc-port]', '4560');
    await page.selectOption('[data-testid=osc-mode]', 'ahead');
    await page.click('[data-testid=osc-add]');
    await page.waitForSelector(`${row} [data-testid=osc-warning]`);
    expect(await page.textContent(`${row} [data-testid=osc-warning]`)).toMatch(/Sonic Pi's.*Use mode=plain/);
    await shot('04c-osc-sonic-pi-warning');
    await page.selectOption(`${row} [data-testid=osc-target-mode]`, 'plain');
    await page.waitForSelector(`${row} [data-testid=osc-warning]`, { state: 'detached' });
  } finally {
    await page.click(`${row} .btn-ghost`).catch(() => {});
    if (wasPlaying) server.show.engine.play();
  }
});

test('keyboard: Space pauses and resumes, Esc stops', async () => {
  await page.click('#top-title'); // focus the page, not a field
  await page.keyboard.press('Space');
  await waitFor(() => server.status().transport === 'paused', 3000, 'paused by Space');
  await page.waitForFunction(() => document.querySelector('[data-testid=transport-state]')?.textContent === 'Paused');
  await page.keyboard.press('Space');
  await waitFor(() => server.status().transport === 'playing', 3000, 'playing again by Space');
  await page.keyboard.press('Escape');
  await waitFor(() => server.status().transport === 'stopped', 3000, 'stopped by Esc');
  await page.waitForFunction(() => document.querySelector('[data-testid=pos-bar]')?.textContent === '1');
});

test('count-in clicks one bar, then the show plays', async () => {
  await page.check('#countin-toggle');
  await page.click('[data-testid=play]');
  await page.waitForFunction(() => document.querySelector('[data-testid=transport-state]')?.textContent === 'Counting in', null, {
    timeout: 3000,
  });
  expect(server.status().transport).toBe('stopped');
  await waitFor(() => server.status().transport === 'playing', 8000, 'playing after the count-in');
  await page.uncheck('#countin-toggle');
  await page.click('#btn-stop');
  await waitFor(() => server.status().transport === 'stopped', 3000, 'stopped');
});

test('fits a 1280 × 800 laptop screen: transport and audience above the fold', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.click('[data-testid=play]');
  await waitFor(() => server.status().transport === 'playing', 3000, 'playing');
  await page.waitForTimeout(2500);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}05-laptop-viewport.png` });
  const box = await page.locator('[data-testid=play]').boundingBox();
  expect(box.y + box.height).toBeLessThan(800);
  await page.keyboard.press('Escape');
  await waitFor(() => server.status().transport === 'stopped', 3000, 'stopped');
});

test('at 800 px wide no half-width card sits alone on its row (no large empty areas)', async () => {
  await page.setViewportSize({ width: 800, height: 1000 });
  await page.screenshot({ path: `${SHOTS}06-800px.png`, fullPage: true });
  const cards = await page.$$eval('.layout > .card', (els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { name: el.className, top: Math.round(r.top), width: r.width, layout: el.parentElement.getBoundingClientRect().width };
    }),
  );
  // A hidden card (the replay card until a record is replayed) takes no room: only shown cards count.
  const shown = cards.filter((c) => c.width > 0);
  const alone = shown.filter((c) => c.width < c.layout * 0.7 && !shown.some((o) => o !== c && o.top === c.top));
  expect(alone.map((c) => c.name)).toEqual([]);
  await page.setViewportSize({ width: 1600, height: 1000 });
});

test('no script errors and no CSP violations in the whole session', () => {
  expect(pageErrors).toEqual([]);
});
