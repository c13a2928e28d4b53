// The three engines `npm run test:browsers` drives (docs/reference/test-suites.md#suites-beyond-npm-test), behind one
// small page interface (goto, evaluate, click, screenshot) so every check reads the same in each:
// - Chromium: tools/chromium.js (playwright-core over CDP);
// - Firefox ESR: Debian's firefox-esr, puppeteer-core over WebDriver BiDi (no driver download);
// - WebKitGTK: Debian's WebKitWebDriver (classic WebDriver, selenium-webdriver as the client)
//   starting MiniBrowser, on $DISPLAY or on an Xvfb this file starts when there is none.
// An engine whose binary is missing is reported as unavailable with the reason, and its tests are
// skipped (visibly), never passed.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { launchChromium } from '../../../tools/chromium.js';
import { freePort } from '../../support/free-port.js';

export const FIREFOX_BINARY = process.env.TUTTI_FIREFOX || '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = process.env.TUTTI_WEBKIT_DRIVER || '/usr/bin/WebKitWebDriver';
const MINIBROWSER_CANDIDATES = [
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  '/usr/libexec/webkit2gtk-4.1/MiniBrowser',
];
export const XVFB = '/usr/bin/Xvfb';

/** A phone-sized window: the audience page's layout at a phone's width. */
const PHONE = { width: 390, height: 844 };
/** A laptop's window: the composer's console. */
const LAPTOP = { width: 1400, height: 1000 };

/**
 * Why an engine cannot run here, or null when it can.
 * @param {'chromium' | 'firefox' | 'webkit'} name
 * @returns {string | null}
 */
export function unavailable(name) {
  if (name === 'firefox' && !existsSync(FIREFOX_BINARY)) return `${FIREFOX_BINARY} missing (apt-get install firefox-esr)`;
  if (name === 'webkit') {
    if (!existsSync(WEBKIT_DRIVER)) return `${WEBKIT_DRIVER} missing (apt-get install webkit2gtk-driver)`;
    if (!MINIBROWSER_CANDIDATES.some((p) => existsSync(p))) return 'MiniBrowser missing (it comes with libwebkit2gtk-4.1-0)';
    if (!process.env.DISPLAY && !existsSync(XVFB)) return 'no $DISPLAY and no Xvfb (apt-get install xvfb)';
  }
  return null;
}

/**
 * Whether an engine's checks can run here; when they cannot, the reason is registered as a
 * test: a failing one in CI (TUTTI_REQUIRE_ENGINES: .ci/run installs every engine, so a missing
 * one is a failure), a visible skip with a warning by hand. Never a silent pass.
 * @param {'chromium' | 'firefox' | 'webkit'} name
 * @returns {boolean}
 */
export function engineCanRun(name) {
  const reason = unavailable(name);
  if (!reason) return true;
  if (process.env.TUTTI_REQUIRE_ENGINES)
    test(`${name} is installed`, () => {
      throw new Error(`${name} not available: ${reason}`);
    });
  else {
    test.skip(`${name} not run: ${reason}`, () => {});
    console.warn(`test:browsers: ${name} skipped: ${reason}`);
  }
  return false;
}

/**
 * Start Xvfb on a display it picks itself (-displayfd).
 * @returns {Promise<{ display: string, proc: import('node:child_process').ChildProcess }>} `:N` and the process
 */
export function startXvfb() {
  return new Promise((resolve, reject) => {
    const proc = spawn(XVFB, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error('Xvfb gave no display within 10 s')), 10_000);
    proc.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve({ display: `:${out.trim()}`, proc });
      }
    });
    proc.once('error', reject);
  });
}

/** Poll until the WebDriver server answers /status (bounded). */
async function waitForDriver(url, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(`${url}/status`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`WebKitWebDriver did not answer at ${url} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The page interface over a playwright or puppeteer page (their goto/evaluate/click/screenshot agree). */
function scriptedPage(page, version, close) {
  return {
    version,
    goto: (url) => page.goto(url),
    evaluate: (fn, arg) => page.evaluate(fn, arg),
    click: (sel) => page.click(sel),
    screenshot: (path) => page.screenshot({ path }),
    close,
  };
}

async function chromium(window) {
  const browser = await launchChromium();
  const phone = window === PHONE;
  const context = await browser.newContext({ viewport: window, deviceScaleFactor: phone ? 2 : 1, isMobile: phone, hasTouch: phone });
  return scriptedPage(await context.newPage(), browser.version(), () => browser.close());
}

async function firefox(window) {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_BINARY,
    headless: true,
    // A phone lets a tapped page start sound; nothing may phone home from a test run.
    extraPrefsFirefox: { 'media.autoplay.default': 0, 'network.captive-portal-service.enabled': false },
  });
  const page = await browser.newPage();
  await page.setViewport(window);
  return scriptedPage(page, await browser.version(), () => browser.close());
}

async function webkit(window) {
  const { Builder, By } = await import('selenium-webdriver');
  const xvfb = process.env.DISPLAY ? null : await startXvfb();
  const port = await freePort();
  const driverProc = spawn(WEBKIT_DRIVER, [`--port=${port}`], {
    stdio: 'ignore',
    env: { ...process.env, ...(xvfb ? { DISPLAY: xvfb.display } : {}) },
  });
  const stopAll = () => {
    driverProc.kill();
    xvfb?.proc.kill();
  };
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForDriver(url);
    const binary = MINIBROWSER_CANDIDATES.find((p) => existsSync(p));
    const driver = await new Builder()
      .usingServer(url)
      .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary, args: ['--automation'] } })
      .build();
    await driver.manage().window().setRect(window);
    const caps = await driver.getCapabilities();
    const { writeFile } = await import('node:fs/promises');
    return {
      version: `WebKitGTK ${caps.get('browserVersion')}`,
      goto: (u) => driver.get(u),
      // Classic WebDriver runs a function body: the function travels as source, its argument as JSON.
      evaluate: (fn, arg) => driver.executeScript(`return (${fn.toString()})(arguments[0]);`, arg === undefined ? null : arg),
      click: async (sel) => (await driver.findElement(By.css(sel))).click(),
      screenshot: async (path) => writeFile(path, await driver.takeScreenshot(), 'base64'),
      close: async () => {
        try {
          await driver.quit();
        } finally {
          stopAll();
        }
      },
    };
  } catch (err) {
    stopAll();
    throw err;
  }
}

/**
 * Launch one engine with one page, phone-sized (the audience and part pages) or, with `laptop`,
 * a laptop's window (the console).
 * @param {'chromium' | 'firefox' | 'webkit'} name
 * @param {{ laptop?: boolean }} [options]
 */
export function launchEngine(name, { laptop = false } = {}) {
  return { chromium, firefox, webkit }[name](laptop ? LAPTOP : PHONE);
}

/**
 * Poll `fn` in the page until it returns a truthy value; rejects after `ms` with `what`.
 * @param {{ evaluate: (fn: Function, arg?: any) => Promise<any> }} page
 */
export async function waitInPage(page, fn, arg, ms = 15_000, what = fn.toString()) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await page.evaluate(fn, arg);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
