// The musicians' own OSC tools, run for real (docs/reference/test-suites.md#interop-suite): Pd vanilla
// (Debian's puredata-core: a patch [netreceive -u -b] → [oscparse] → [list trim] → [print OSC],
// headless), Pd with pd-osc's `[unpackOSC]` → `[pipelist]` (scheduling on timetags), liblo's
// `oscdump` (liblo-tools), SuperCollider's language, sclang (supercollider-language), running an
// OSCdef patch, and its server scsynth. Each prints a line per message it acts on;
// the line's arrival here, on a high-resolution wall clock, is when that tool acted on it.

import { spawn, spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Message, encode } from 'node-osc';
import { wallClock } from '../support/osc-receivers.js';
import { onOwnJack } from './jack.js';

/** Where Debian's pd-osc puts Martin Peach's OSC objects for Pd. */
const PD_OSC_LIBRARY = '/usr/lib/pd/extra/osc/unpackOSC.pd_linux';
/** Sonic Pi's server as Debian's sonic-pi-server installs it (sonic-pi.js). */
export const SONIC_PI_SERVER = '/usr/lib/sonic-pi/app/server/ruby/bin/sonic-pi-server.rb';

/** Fail with what to install when a tool is missing (the suite never skips silently). */
export function requireTools() {
  const missing = [
    ['pd', 'puredata-core'],
    ['oscdump', 'liblo-tools'],
    ['sclang', 'supercollider-language'],
    ['scsynth', 'supercollider-server'],
    ['jackd', 'jackd2'],
    ['chuck', 'chuck'],
    ['csound', 'csound'],
  ].filter(([bin]) => spawnSync('sh', ['-c', `command -v ${bin}`]).status !== 0);
  if (!existsSync(PD_OSC_LIBRARY)) missing.push(['[unpackOSC]', 'pd-osc']);
  if (!existsSync(SONIC_PI_SERVER)) missing.push(['sonic-pi-server.rb', 'sonic-pi-server']);
  if (missing.length) {
    throw new Error(
      `npm run test:interop needs ${missing.map(([bin, pkg]) => `${bin} (Debian package ${pkg})`).join(' and ')}: apt-get install -y --no-install-recommends puredata-core liblo-tools supercollider-language supercollider-server chuck csound pd-osc sonic-pi-server`,
    );
  }
}

/**
 * Start a tool and collect its output lines with their arrival time; resolves once it has acted
 * on a probe message (so it is listening).
 * @param {{ name: string, command: string, args: string[], stream: 'stdout' | 'stderr', port: number, parse: (line: string) => { address: string, args: number[] } | null, env?: NodeJS.ProcessEnv, dir?: string, setUp?: Buffer }} spec
 *   dir: the tool's temporary directory, removed when it stops;
 *   setUp: a packet sent before each probe (a setting the tool needs before it prints anything)
 */
export async function startTool({ name, command, args, stream, port, parse, env = process.env, dir, setUp }) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  /** @type {Array<{ address: string, args: number[], at: number }>} */
  const received = [];
  let rest = '';
  let output = '';
  child[stream].setEncoding('utf8');
  child[stream].on('data', (chunk) => {
    const at = wallClock();
    output = (output + chunk).slice(-2000);
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const message = parse(line);
      if (message) received.push({ ...message, at });
    }
  });
  const other = stream === 'stdout' ? child.stderr : child.stdout;
  other.setEncoding('utf8');
  other.on('data', (chunk) => {
    output = (output + chunk).slice(-2000);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Probe until it answers: a tool that cannot start fails here with its own words.
  const probe = dgram.createSocket('udp4');
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 15_000;
    while (!received.some((r) => r.address === '/tutti/probe')) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`${name} did not start listening on udp ${port}: ${output.trim() || '(no output)'}`);
      if (setUp) probe.send(setUp, port, '127.0.0.1');
      probe.send(encode(new Message('/tutti/probe', 1)), port, '127.0.0.1');
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    await stop();
    throw err;
  } finally {
    probe.close();
  }
  return {
    name,
    port,
    received,
    stop,
  };
}

/**
 * Write a Pd patch that chains `[netreceive -u -b port]` → each of `objects` → `[print OSC]`,
 * plus `extra` connections; returns its path.
 * @param {string} dir @param {string} name @param {number} port @param {string[]} objects @param {string[]} [extra]
 */
function writePdChain(dir, name, port, objects, extra = []) {
  const boxes = [`netreceive -u -b ${port}`, ...objects, 'print OSC'];
  const file = join(dir, name);
  writeFileSync(
    file,
    [
      '#N canvas 0 0 450 300 12;',
      ...boxes.map((box, i) => `#X obj 10 ${10 + 30 * i} ${box};`),
      ...boxes.slice(1).map((_, i) => `#X connect ${i} 0 ${i + 1} 0;`),
      ...extra,
      '',
    ].join('\n'),
  );
  return file;
}

/** Pd headless, printing to stderr, polling its sockets each ms (startPd says why), running `patch`. */
const pdArgs = (patch) => ['-nogui', '-nosound', '-nomidi', '-noprefs', '-stderr', '-sleepgrain', '1', '-open', patch];

/**
 * Pd vanilla, headless, with a patch that unpacks OSC on arrival and prints it (`OSC: tutti beat 1 2 240`).
 * Without an audio device Pd polls its sockets every "sleep grain" (measured here: +5 ms median at
 * its default); -sleepgrain 1 makes it poll each ms, as it does each 64-sample block with audio,
 * so what is measured is Tutti's timing rather than Pd's idle polling.
 */
export function startPd(port) {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-pd-'));
  return startTool({
    name: 'Pd vanilla',
    command: 'pd',
    port,
    dir,
    stream: 'stderr',
    args: pdArgs(writePdChain(dir, 'osc-print.pd', port, ['oscparse', 'list trim'])),
    parse(line) {
      const m = /^OSC: (\S+) (\S+)((?: \S+)*)$/.exec(line.trim());
      return m ? { address: `/${m[1]}/${m[2]}`, args: m[3].trim().split(' ').filter(Boolean).map(Number) } : null;
    },
  });
}

/**
 * Pd with Martin Peach's OSC objects (Debian's pd-osc, the OSC library Pd-extended shipped and
 * many older patches use): `[unpackOSC]` gives each message of a bundle with the milliseconds until
 * its timetag on its right outlet, and `[pipelist]` holds the message that long, the idiom of
 * unpackOSC's help patch. So this Pd patch schedules on timetags; the objects load from Pd's extra
 * folder as `osc/…`. Prints `OSC: /tutti/beat 1 2 240`.
 * @param {number} port
 */
export function startPdTimetag(port) {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-pd-osc-'));
  // unpackOSC's right outlet (the ms to the timetag) sets how long pipelist holds the message.
  const patch = writePdChain(dir, 'osc-pipelist.pd', port, ['osc/unpackOSC', 'osc/pipelist'], ['#X connect 1 1 2 1;']);
  return startTool({
    name: 'Pd unpackOSC',
    command: 'pd',
    port,
    dir,
    stream: 'stderr',
    args: pdArgs(patch),
    parse(line) {
      const m = /^OSC: (\/\S+)((?: \S+)*)$/.exec(line.trim());
      return m ? { address: m[1], args: m[2].trim().split(' ').filter(Boolean).map(Number) } : null;
    },
  });
}

/** liblo's oscdump, line-buffered (`eeaf9ebe.da81ba7e /tutti/beat iif 1 2 240.000000`); it holds a bundle until its timetag. */
export function startOscdump(port) {
  return startTool({
    name: 'liblo oscdump',
    command: 'oscdump',
    port,
    stream: 'stdout',
    args: ['-L', String(port)],
    parse(line) {
      const m = /^(?:[0-9a-f]{8}\.[0-9a-f]{8} )?(\/\S+) \S+((?: \S+)*)$/.exec(line.trim());
      return m ? { address: m[1], args: m[2].trim().split(' ').filter(Boolean).map(Number) } : null;
    },
  });
}

/**
 * What sclang needs to run headless in `dir`: it is a Qt program, so it runs without a display on
 * Qt's offscreen platform; its QtWebEngine refuses to run as root without the sandbox disabled
 * and forks helper processes unless single-process; HOME and XDG_RUNTIME_DIR point into `dir`
 * so it writes its settings there.
 * @param {string} dir a temporary directory
 * @returns {NodeJS.ProcessEnv}
 */
export function sclangEnvironment(dir) {
  mkdirSync(join(dir, 'run'), { recursive: true, mode: 0o700 });
  return {
    ...process.env,
    QT_QPA_PLATFORM: 'offscreen',
    QTWEBENGINE_DISABLE_SANDBOX: '1',
    QTWEBENGINE_CHROMIUM_FLAGS: '--single-process',
    HOME: dir,
    XDG_RUNTIME_DIR: join(dir, 'run'),
  };
}

/**
 * SuperCollider's language, sclang, headless (`-D`: no stdin, no editor), listening on `port`
 * (`-u`: its one UDP port, which it also replies from) with a musician's patch: one OSCdef per
 * address. `patch` says what the beat's function does with the `time` sclang passes it, which is
 * the arrival for a plain message and the bundle's timetag (on sclang's own clock) for a bundle:
 * - `arrival`: acts at once, as most patches do (sclang runs a bundle's responders when it
 *   arrives, whatever its timetag);
 * - `timetag`: `SystemClock.schedAbs(time, …)`, the patch scheduling on the time it is given.
 * Both echo `/tutti/ping n` to the sender, as docs/README.md tells musicians to.
 * @param {number} port
 * @param {'arrival' | 'timetag'} patch
 */
export function startSclang(port, patch) {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-sclang-'));
  const act = patch === 'timetag' ? '{ |msg, time| SystemClock.schedAbs(time, { report.(msg); nil }) }' : '{ |msg, time| report.(msg) }';
  writeFileSync(
    join(dir, 'tutti.scd'),
    [
      '(',
      'var report = { |msg| ("SC: " ++ msg.collect(_.asString).join(" ")).postln };',
      `OSCdef(\\tuttiBeat, ${act}, '/tutti/beat');`,
      `OSCdef(\\tuttiProbe, ${act}, '/tutti/probe');`,
      "OSCdef(\\tuttiPing, { |msg, time, addr| addr.sendMsg(*msg) }, '/tutti/ping');",
      ')',
      '',
    ].join('\n'),
  );
  return startTool({
    name: `sclang ${patch}`,
    command: 'sclang',
    port,
    dir,
    stream: 'stdout',
    args: ['-u', String(port), '-D', join(dir, 'tutti.scd')],
    env: sclangEnvironment(dir),
    parse(line) {
      const m = /^SC: (\/\S+)((?: \S+)*)$/.exec(line.trim());
      return m ? { address: m[1], args: m[2].trim().split(' ').filter(Boolean).map(Number) } : null;
    },
  });
}

/**
 * SuperCollider's synthesis server, scsynth, on a JACK server of its own with the dummy driver
 * (no sound card here; 64-sample blocks at 48 kHz, as a live set-up would run). scsynth does not
 * know Tutti's addresses: it says "FAILURE IN SERVER: /tutti/beat Command not found" at the moment
 * it carries a message out — at once for a plain message, at its timetag for a bundle — and that
 * line's arrival is what is measured. `/dumpOSC 1` makes it print each message with its arguments
 * when it arrives; each FAILURE line is matched to the message it carries out (a plain one first:
 * plain messages never wait, then the bundled ones in timetag order).
 * @param {number} port
 */
export function startScsynth(port) {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-scsynth-'));
  /** Messages printed on arrival, not yet carried out: plain ones and bundled ones. */
  const waiting = { plain: [], bundled: [] };
  return onOwnJack(String(port), dir, (env) =>
    startTool({
      name: 'scsynth',
      command: 'scsynth',
      port,
      dir,
      env,
      stream: 'stdout',
      args: ['-u', String(port), '-B', '127.0.0.1'],
      setUp: encode(new Message('/dumpOSC', 1)),
      parse(line) {
        const dumped = /^(\s*)\[ "(\/[^"]+)"((?:, [^,\]]+)*) \]$/.exec(line);
        if (dumped) {
          const args = dumped[3].split(', ').filter(Boolean).map(Number);
          (dumped[1] ? waiting.bundled : waiting.plain).push({ address: dumped[2], args });
          return null;
        }
        const done = /^FAILURE IN SERVER:? (\/\S+) Command not found/.exec(line);
        if (!done) return null;
        for (const queue of [waiting.plain, waiting.bundled]) {
          const i = queue.findIndex((m) => m.address === done[1]);
          if (i >= 0) return queue.splice(i, 1)[0];
        }
        return null;
      },
    }),
  );
}
