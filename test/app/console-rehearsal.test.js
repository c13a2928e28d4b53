// The console's Rehearsal card (docs/how-to/rehearse.md#rehearsing) in real Chromium against a real show
// server: loop section B until released from the card (with a bar of count-in), the pass on the
// card, release with the L key, a rehearsal tempo in percent, start from a printed bar, and a
// mistake (an unknown section) shown as the server's sentence. Screenshot: artifacts/console/rehearsal.png.

import { createLog } from '../../local-server/src/logs/log.js';
import { waitFor } from '../support/clients.js';
import { CONSOLE_SHOTS, openConsolePage } from '../support/console-page.js';
import { writeRehearsalScore } from '../support/rehearsal-score.js';
import { placeFromText } from '../../web/console/rehearsal-panel.js';

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
    viewport: { width: 1600, height: 1000 },
    server: { scorePath: writeRehearsalScore(), log: createLog() },
  }));
}, 180_000);

afterAll(async () => {
  await stop?.();
});

test('places typed as musicians say them', () => {
  const score = { sections: [{ mark: 'B' }], printedBars: null };
  expect(placeFromText('b', score)).toEqual({ section: 'B' });
  expect(placeFromText('9', score)).toEqual({ bar: 9 });
  expect(placeFromText('9, 3', score)).toEqual({ bar: 9, beat: 3 });
  expect(placeFromText('17', { sections: [], printedBars: [{ bar: 1, number: 1 }] })).toEqual({ printedBar: 17 });
  expect(placeFromText('Q', score)).toEqual({ section: 'Q' });
  expect(placeFromText('  ', score)).toBeNull();
});

test('loop B from the card, the pass shown, L releases it; tempo in percent; an unknown section is explained', async () => {
  await page.goto(`${server.controlUrl}/?token=${TOKEN}`);
  await page.waitForSelector('.card-rehearsal');
  await page.fill('#rehearse-from', 'B');
  await page.fill('#rehearse-countin', '1');
  await page.fill('#rehearse-percent', '200');
  await page.click('.card-rehearsal button:has-text("Set")');
  await waitFor(() => server.status().tempoPercent === 200, 5000, 'the rehearsal tempo');
  await page.click('.card-rehearsal button:has-text("Loop")');
  await waitFor(() => server.status().loop?.pass === 2, 10_000, 'the second pass');
  expect(server.status().loop).toMatchObject({ from: { bar: 3, beat: 1 }, to: { bar: 4, beat: 4 }, of: null });
  await page.waitForFunction(() => /pass 2/.test(document.querySelector('[data-testid=rehearse-state]')?.textContent ?? ''), null, {
    timeout: 5000,
  });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${CONSOLE_SHOTS}rehearsal.png`, fullPage: true });
  await page.click('h2#h-rehearsal'); // leave the fields: L is a shortcut, not a letter typed
  await page.keyboard.press('l');
  await waitFor(() => server.status().loop?.releasing === true, 5000, 'released');
  await waitFor(() => server.status().loop === null && server.status().position.bar >= 5, 10_000, 'past the loop');
  const log = server.log
    .recent()
    .map((e) => e.msg)
    .join('\n');
  expect(log).toMatch(/loop section B until released → .* \(console\)/);
  expect(log).toMatch(/loop released: leaving at the end of this pass .*\(console\)/);

  await page.fill('#rehearse-from', 'Z');
  await page.click('.card-rehearsal button:has-text("Start (R)")');
  await page.waitForFunction(() =>
    /no section "Z"; the sections are: A, B, C, D, E/.test(document.getElementById('rehearse-error')?.textContent ?? ''),
  );
  await page.fill('#rehearse-from', '6, 3');
  await page.fill('#rehearse-countin', '0');
  await page.click('.card-rehearsal button:has-text("Start (R)")');
  // The score has printed bar numbers: "6, 3" is printed bar 6 beat 3 (bar 6, its first time).
  await waitFor(() => server.status().transport === 'playing' && server.status().position.bar >= 6, 5000, 'from printed bar 6');
  expect(await page.textContent('#rehearse-error')).toBe('');
  server.show.engine.stop();
  // The one refused request (the unknown section) is Chromium's only complaint.
  expect(pageErrors.filter((e) => !/status of 400 \(Bad Request\)/.test(e))).toEqual([]);
});
