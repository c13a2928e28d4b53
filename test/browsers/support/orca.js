// A real screen reader reading a page: GNOME's Orca (Debian's `orca`) with Firefox ESR or Debian's
// Chromium on an Xvfb display of its own, on a private D-Bus session with its own accessibility bus (at-spi2-core).
// Orca writes everything it would say to its debug output as `SPEECH OUTPUT: '…'` lines, whether
// or not a speech synthesizer is installed; those lines are what the tests read. The debug output
// goes to a terminal (`script` gives Orca one), because Python buffers a file in 8 KB blocks and
// only line-buffers a terminal. Used by screen-reader.test.js (docs/reference/test-suites.md#suites-beyond-npm-test).

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIREFOX_BINARY, XVFB, startXvfb } from './engines.js';

const ORCA = '/usr/bin/orca';
const SCRIPT = '/usr/bin/script';
const DBUS_DAEMON = '/usr/bin/dbus-daemon';
const ATSPI_LAUNCHER = '/usr/libexec/at-spi-bus-launcher';

/** Debian's Chromium, with a window (the headless shell has no accessibility bridge). */
export const CHROMIUM_BINARY = process.env.TUTTI_CHROMIUM_DESKTOP || '/usr/bin/chromium';

/**
 * Chromium as root on a display of its own: no sandbox (root), its accessibility tree built from
 * the start and exposed over AT-SPI, and nothing phoning home (this machine's network is closed).
 */
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--force-renderer-accessibility',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-gpu',
  '--password-store=basic',
];

/**
 * Why Orca cannot read `browser` here, or null when it can.
 * @param {'firefox' | 'chromium'} browser
 */
export function screenReaderUnavailable(browser) {
  const missing = [
    [ORCA, 'orca'],
    [SCRIPT, 'bsdutils'],
    [DBUS_DAEMON, 'dbus-daemon'],
    [ATSPI_LAUNCHER, 'at-spi2-core'],
    [XVFB, 'xvfb'],
    browser === 'chromium' ? [CHROMIUM_BINARY, 'chromium'] : [FIREFOX_BINARY, 'firefox-esr'],
  ].filter(([path]) => !existsSync(path));
  return missing.length ? `${missing.map(([path, pkg]) => `${path} (apt-get install ${pkg})`).join(', ')} missing` : null;
}

/** Firefox without first-run tabs, update checks or anything phoning home. */
const FIREFOX_PREFS = {
  'browser.startup.homepage_override.mstone': 'ignore',
  'startup.homepage_welcome_url': '',
  'startup.homepage_welcome_url.additional': '',
  'browser.aboutwelcome.enabled': false,
  'browser.shell.checkDefaultBrowser': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'datareporting.policy.firstRunURL': '',
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'network.captive-portal-service.enabled': false,
  'app.update.auto': false,
};

/** @param {number} pid whether that process still exists */
const alive = (pid) => existsSync(`/proc/${pid}`);

/**
 * SIGTERM, then SIGKILL after 3 s; resolves when the process is gone. Orca runs in a session of
 * its own under `script`, so it is stopped by its pid, and a second Orca refuses to start while
 * one is still running (its `otherOrcas` check).
 * @param {number} pid
 */
async function end(pid) {
  const signal = (name) => {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + 3000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  signal('SIGKILL');
  while (alive(pid)) await new Promise((r) => setTimeout(r, 50));
}

/** Poll `check` every 100 ms until it is true or `ms` pass. */
async function until(check, ms, what) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`screen reader: ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Firefox on `url` with its own profile in `profile`, its prefs in the profile's user.js.
 * @returns {[string, string[]]}
 */
function firefoxCommand(profile, url) {
  writeFileSync(
    join(profile, 'user.js'),
    Object.entries(FIREFOX_PREFS)
      .map(([key, value]) => `user_pref(${JSON.stringify(key)}, ${JSON.stringify(value)});`)
      .join('\n'),
  );
  return [FIREFOX_BINARY, ['--no-remote', '--profile', profile, url]];
}

/**
 * Chromium on `url` with its user data in `profile`.
 * @returns {[string, string[]]}
 */
const chromiumCommand = (profile, url) => [CHROMIUM_BINARY, [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, url]];

/**
 * Start the accessibility stack and Orca, then `browser` on `url`.
 * @param {string} url
 * @param {'firefox' | 'chromium'} [browser]
 * @returns {Promise<{ spoken: () => string[], waitToSay: (test: (text: string) => boolean, ms: number, what: string) => Promise<void>, stop: () => Promise<void> }>}
 *   spoken: every utterance so far, in order
 */
export async function startScreenReader(url, browser = 'firefox') {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-orca-'));
  /** What Orca said, in order, and whether it has started. */
  const said = [];
  let started = false;
  /** @type {number[]} pids, started last first, stopped in that order */
  const pids = [];
  const stop = async () => {
    for (const pid of pids.reverse()) await end(pid);
    rmSync(dir, { recursive: true, force: true });
  };
  const spoken = () => said.slice();
  const waitToSay = (test, ms, what) => until(() => said.some(test), ms, `Orca did not say ${what}`);
  try {
    const xvfb = await startXvfb();
    pids.push(/** @type {number} */ (xvfb.proc.pid));
    const dbus = spawn(DBUS_DAEMON, ['--session', '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
    pids.push(/** @type {number} */ (dbus.pid));
    let address = '';
    dbus.stdout.on('data', (d) => {
      address += d;
    });
    await until(() => address.includes('\n'), 10_000, 'no D-Bus session address');
    mkdirSync(join(dir, 'run'), { mode: 0o700 });
    const env = {
      ...process.env,
      DISPLAY: xvfb.display,
      DBUS_SESSION_BUS_ADDRESS: address.trim(),
      HOME: dir,
      XDG_RUNTIME_DIR: join(dir, 'run'),
      // Firefox exposes its accessibility tree over AT-SPI only when asked to.
      GNOME_ACCESSIBILITY: '1',
      // No synthesizer: Orca's speech client fails at once instead of starting speech-dispatcher
      // (which can hang without an audio device); Orca still logs every utterance.
      SPEECHD_CMD: '/bin/false',
    };
    pids.push(/** @type {number} */ (spawn(ATSPI_LAUNCHER, ['--launch-immediately'], { stdio: 'ignore', env }).pid));
    // `exec`: Orca replaces script's shell, so it is script's one child.
    const orca = spawn(SCRIPT, ['-q', '-f', '-e', '-c', `exec ${ORCA} --debug-file /dev/tty -u ${join(dir, 'orca-prefs')}`, '/dev/null'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env,
    });
    pids.push(/** @type {number} */ (orca.pid));
    let rest = '';
    orca.stdout.setEncoding('utf8');
    orca.stdout.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const speech = /SPEECH OUTPUT: '(.*)'(?:\{.*\})?\r?$/.exec(line);
        if (speech) said.push(speech[1]);
        else if (line.includes('ORCA: Startup complete')) started = true;
      }
    });
    await until(() => started, 20_000, 'Orca did not start');
    const children = readFileSync(`/proc/${orca.pid}/task/${orca.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
    pids.push(...children.filter(Boolean));
    const profile = join(dir, 'profile');
    mkdirSync(profile);
    const [command, args] = browser === 'chromium' ? chromiumCommand(profile, url) : firefoxCommand(profile, url);
    pids.push(/** @type {number} */ (spawn(command, args, { stdio: 'ignore', env }).pid));
    return { spoken, waitToSay, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
