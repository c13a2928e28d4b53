// The music font on the part page (docs/reference/notation.md#the-music-font), in real Chromium:
// the Mozart quartet's first violin page names the font ("♩ = 100" draws a SMuFL note); the page
// fetches the font once, puts it into the page it shows (an <img> would load nothing itself),
// and a second visit in the same browser takes it from the notation cache, not the network.
// Screenshot: artifacts/audience/part-notation-font.png.

import { acquireBrowserLock } from './support/exclusive.js';
import { ARTIFACTS, launchBrowser, openPage, waitInPage } from './support/browser.js';
import { notationShow } from './support/notation-show.js';

const TABLET = { viewport: { width: 1180, height: 820 }, deviceScaleFactor: 1, hasTouch: true, isMobile: false };
const MOZART = 'Mozart_String_Quartet_in_G_K._387_1st_Mvmnt_excerpt.musicxml';

let browser;
let releaseLock;
let quartet;

beforeAll(async () => {
  releaseLock = await acquireBrowserLock();
  [quartet, browser] = await Promise.all([notationShow(MOZART, 100), launchBrowser()]);
  await quartet.show.notation.settled();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await quartet?.close();
  await releaseLock?.();
});

/** The src of the first page on screen, once it is drawn. */
const shownSrc = async (page) => {
  await waitInPage(page, () => window.__part.notation().loaded, undefined, 60_000);
  await waitInPage(page, () => {
    const img = document.querySelector('#sheet .slot:not([hidden]) img');
    return Boolean(img && img.complete && img.naturalWidth > 0);
  });
  return page.evaluate(() => decodeURIComponent(document.querySelector('#sheet .slot:not([hidden]) img').src));
};

test('the page shown has the font in it; fetched once, then from the cache', async () => {
  const { show } = quartet;
  const { page, context, problems } = await openPage(browser, TABLET);
  const fonts = [];
  page.on('request', (r) => {
    if (r.url().includes('/notation/font/')) fonts.push(r.url());
  });
  await page.goto(`${show.audienceUrl}/part/${show.partKey}/#violin-1`);
  const src = await shownSrc(page);
  // The font itself (woff2 begins "wOF2", base64 "d09GMg"), not its URL, is in the page shown.
  expect(src).toMatch(/@font-face\{font-family:'Leipzig';src:url\(data:font\/woff2;base64,d09GMg/);
  expect(src).not.toMatch(/url\(\.\.\/font\//);
  expect(fonts).toHaveLength(1);
  const sheet = await page.locator('#sheet').boundingBox();
  await page.screenshot({ path: `${ARTIFACTS}part-notation-font.png`, clip: { x: sheet.x, y: sheet.y, width: 420, height: 160 } });

  await page.reload();
  expect(await shownSrc(page)).toMatch(/src:url\(data:font\/woff2;base64,d09GMg/);
  // localhost is a secure context: the Cache API kept the font with the pages.
  expect(fonts).toHaveLength(1);
  expect(problems.filter((p) => !/status of 503/.test(p))).toEqual([]);
  await context.close();
}, 90_000);
