// A minimal Marionette client (Firefox's own remote protocol: `<length>:<JSON>` packets over TCP)
// for the one thing WebDriver BiDi cannot see: Firefox's wake locks, read in the browser's chrome
// context from nsIPowerManagerService (needs -remote-allow-system-access). Used by
// firefox-wake-lock.test.js only.

import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIREFOX_BINARY } from './engines.js';
import { freePort } from '../../support/free-port.js';

/** WebDriver's element reference key. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

async function connect(port, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await new Promise((resolve, reject) => {
        const s = net.connect(port, '127.0.0.1', () => resolve(s));
        s.once('error', reject);
      });
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`Marionette did not listen on ${port} within ${ms} ms: ${err.message}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Headless Firefox ESR with Marionette; returns a page-level client. */
export async function launchMarionetteFirefox() {
  const port = await freePort();
  const profile = await mkdtemp(join(tmpdir(), 'tutti-firefox-'));
  await writeFile(
    join(profile, 'user.js'),
    `user_pref("marionette.port", ${port});\nuser_pref("media.autoplay.default", 0);\nuser_pref("network.captive-portal-service.enabled", false);\n`,
  );
  const proc = spawn(FIREFOX_BINARY, ['--headless', '--marionette', '-remote-allow-system-access', '--no-remote', '--profile', profile], {
    stdio: 'ignore',
  });
  const socket = await connect(port);
  let buf = '';
  /** @type {Array<(msg: any) => void>} */
  const waiters = [];
  socket.on('data', (chunk) => {
    buf += chunk;
    for (;;) {
      const colon = buf.indexOf(':');
      if (colon < 0) return;
      const length = Number(buf.slice(0, colon));
      if (Buffer.byteLength(buf.slice(colon + 1)) < length) return;
      const body = Buffer.from(buf.slice(colon + 1));
      const msg = JSON.parse(body.subarray(0, length).toString());
      buf = body.subarray(length).toString();
      waiters.shift()?.(msg);
    }
  });
  const nextPacket = () => new Promise((resolve) => waiters.push(resolve));
  let id = 0;
  async function command(name, params = {}) {
    const reply = nextPacket();
    const text = JSON.stringify([0, ++id, name, params]);
    socket.write(`${Buffer.byteLength(text)}:${text}`);
    const [, , error, result] = /** @type {any[]} */ (await reply);
    if (error) throw new Error(`${name}: ${error.error}: ${error.message}`);
    return result;
  }
  await nextPacket(); // the server's hello
  await command('WebDriver:NewSession', {});
  const context = async (value) => command('Marionette:SetContext', { value });
  return {
    goto: (url) => command('WebDriver:Navigate', { url }),
    /** Run a function body in the page; `arg` travels as JSON. */
    evaluate: async (fn, arg) =>
      (await command('WebDriver:ExecuteScript', { script: `return (${fn.toString()})(arguments[0]);`, args: [arg ?? null] })).value,
    click: async (selector) => {
      const { value } = await command('WebDriver:FindElement', { using: 'css selector', value: selector });
      await command('WebDriver:ElementClick', { id: value[ELEMENT] });
    },
    /** The browser's wake lock state for a topic: 'unlocked', 'locked-foreground' or 'locked-background'. */
    wakeLockState: async (topic) => {
      await context('chrome');
      try {
        const script =
          'return Cc["@mozilla.org/power/powermanagerservice;1"].getService(Ci.nsIPowerManagerService).getWakeLockState(arguments[0]);';
        return (await command('WebDriver:ExecuteScript', { script, args: [topic] })).value;
      } finally {
        await context('content');
      }
    },
    close: async () => {
      try {
        await command('WebDriver:DeleteSession');
      } catch {
        // the browser may already be going
      }
      socket.destroy();
      proc.kill();
      await new Promise((r) => (proc.exitCode !== null ? r() : proc.once('exit', r)));
      await rm(profile, { recursive: true, force: true });
    },
  };
}
