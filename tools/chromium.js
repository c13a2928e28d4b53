// Which headless Chromium the browser tests, the report screenshots and the icon renderer drive
// (through playwright-core): a system Chromium when the machine has one, otherwise the one the
// npm registry ships (@sparticuz/chromium, a devDependency), so `npm install && npm test` needs
// nothing from apt. TUTTI_CHROMIUM=/path/to/chrome chooses one explicitly.

import { existsSync } from 'node:fs';

/** Places a Debian/Ubuntu/Fedora/macOS Chromium or Chrome lives, in order of preference. */
const SYSTEM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/**
 * Flags for a quiet headless browser on a machine with no network but loopback: without the
 * background-networking flags Chromium keeps trying (and failing) to reach Google's hosts.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

let resolved;

/**
 * Path of a Chromium executable: $TUTTI_CHROMIUM, else a system one, else the npm one (unpacked
 * into the temp folder on first use, ~2 s). Resolved once per process.
 * @returns {Promise<{ path: string, source: 'env' | 'system' | 'npm' }>}
 */
export function findChromium() {
  resolved ??= locate();
  return resolved;
}

async function locate() {
  const fromEnv = process.env.TUTTI_CHROMIUM;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`TUTTI_CHROMIUM=${fromEnv} does not exist`);
    return { path: fromEnv, source: 'env' };
  }
  const system = SYSTEM_CANDIDATES.find((p) => existsSync(p));
  if (system) return { path: system, source: 'system' };
  let npmChromium;
  try {
    npmChromium = (await import('@sparticuz/chromium')).default;
  } catch {
    throw new Error('no Chromium found: run `npm install` (it brings @sparticuz/chromium) or set TUTTI_CHROMIUM');
  }
  // Its other launch flags are for AWS Lambda (single process, no zygote); only the binary is used.
  return { path: await npmChromium.executablePath(), source: 'npm' };
}

/**
 * Launch headless Chromium with playwright-core.
 * @param {{ args?: string[] }} [options] extra flags after the defaults
 * @returns {Promise<import('playwright-core').Browser>}
 */
export async function launchChromium({ args = [] } = {}) {
  const [{ chromium }, { path }] = await Promise.all([import('playwright-core'), findChromium()]);
  return chromium.launch({ executablePath: path, args: [...CHROMIUM_ARGS, ...args] });
}
