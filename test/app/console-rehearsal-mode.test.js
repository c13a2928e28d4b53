// Rehearsal mode in the console (docs/how-to/rehearse.md#rehearsal-mode), in real Chromium against a real
// show server: the top bar always says what the hall sees; the toggle puts the show in rehearsal
// mode (a stripe under the top bar says so) and back; a change made elsewhere (the control API,
// as a script or OSC-in would) shows in the console at once. Screenshot: artifacts/console/.

import { waitFor } from '../support/clients.js';
import { CONSOLE_SHOTS, openConsolePage } from '../support/console-page.js';
import { writeRehearsalModeScore } from '../support/rehearsal-mode-score.js';

const TOKEN = 'console-rehearsal-token';

let server;
let page;
let pageErrors;
let stop;

beforeAll(async () => {
  ({
    server,
    page,
    pageErrors,
    close: stop,
  } = await openConsolePage({
    token: TOKEN,
    viewport: { width: 1400, height: 900 },
    server: { scorePath: writeRehearsalModeScore({ bpm: 400 }) },
  }));
}, 180_000);

afterAll(async () => {
  await stop?.();
});

const toggle = '[data-testid=rehearsal-toggle]';

test('the toggle says what the hall sees, switches rehearsal mode, and follows a change made elsewhere', async () => {
  await page.goto(`${server.controlUrl}/?token=${TOKEN}`);
  await page.waitForFunction(() => document.getElementById('conn-badge')?.textContent === 'Live');
  expect(await page.textContent(toggle)).toBe('Hall sees: the show');
  expect(await page.getAttribute(toggle, 'aria-pressed')).toBe('false');
  expect(await page.isVisible('#rehearsal-stripe')).toBe(false);

  await page.click(toggle);
  await waitFor(() => server.show.rehearsal() === true, 5000, 'rehearsal mode on at the server');
  await page.waitForFunction(() => document.getElementById('rehearsal-stripe')?.checkVisibility());
  expect(await page.textContent(toggle)).toBe('Hall sees: rehearsal screen');
  expect(await page.getAttribute(toggle, 'aria-pressed')).toBe('true');
  expect(server.log.recent().some((e) => e.msg.startsWith('rehearsal mode on') && e.msg.endsWith('(console)'))).toBe(true);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${CONSOLE_SHOTS}rehearsal-mode-on.png` });

  // Someone else ends it (a script on the control API): the console follows from its live feed.
  const res = await fetch(`${server.controlUrl}/api/rehearsal-mode`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}` },
    body: '{"on":false}',
  });
  expect(res.status).toBe(200);
  await page.waitForFunction(
    () => document.querySelector('[data-testid=rehearsal-toggle]')?.textContent === 'Hall sees: the show',
    undefined,
    {
      timeout: 5000,
    },
  );
  expect(await page.isVisible('#rehearsal-stripe')).toBe(false);

  // And back on from elsewhere, then off with the stripe's own button.
  server.show.setRehearsal(true);
  await page.waitForFunction(() => document.getElementById('rehearsal-stripe')?.checkVisibility(), undefined, { timeout: 5000 });
  await page.click('#rehearsal-leave');
  await waitFor(() => server.show.rehearsal() === false, 5000, 'rehearsal mode off at the server');
  await page.waitForFunction(() => !document.getElementById('rehearsal-stripe')?.checkVisibility());
  expect(pageErrors).toEqual([]);
}, 60_000);

test("a prompt that opens in rehearsal mode is marked in the voices card as the console's only", async () => {
  server.show.setRehearsal(true);
  server.show.engine.play();
  await page.waitForFunction(
    () => /rehearsal mode: the phones do not see it/.test(document.getElementById('vote-question')?.textContent ?? ''),
    undefined,
    {
      timeout: 15_000,
    },
  );
  expect(await page.textContent('#vote-question')).toBe('way: Left / Right (rehearsal mode: the phones do not see it)');
  server.show.engine.stop();
  server.show.setRehearsal(false);
  expect(pageErrors).toEqual([]);
}, 30_000);
