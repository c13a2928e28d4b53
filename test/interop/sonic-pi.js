// Sonic Pi, the live-coding music program, as an OSC receiver and sender (docs/how-to/connect-osc-tools.md#on-time-in-every-receiver)
// : Debian's sonic-pi-server 3.2, headless. Its Ruby server boots its own
// scsynth (on a JACK server of ours, dummy driver) and its Erlang OSC router, which takes the OSC
// that musicians send to Sonic Pi's cue port and hands each message to the Ruby server as a cue
// (`/osc:HOST:PORT/tutti/beat`). Code is run as its editor runs it (`/run-code` to the server's
// port); what it prints goes to the editor's port, which we read.
//
// The live_loops follow the beat the way Sonic Pi users write it (`sync "/osc*/tutti/beat"`) and,
// instead of playing a note, send `/echo/<loop> bar beat` back to us. `osc_send` is scheduled
// exactly as a note would be (the thread's time plus its schedule-ahead time, then sent by the
// router at that moment), so the echo's arrival here is when that loop would have sounded.

import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Message, decode, encode } from 'node-osc';
import { wallClock } from '../support/osc-receivers.js';
import { onOwnJack } from './jack.js';
import { SONIC_PI_SERVER } from './osc-receivers.js';
import { freeUdpPort } from '../support/free-port.js';

const BOOT_TIMEOUT_MS = 60_000;
/** Longer than Sonic Pi's default schedule-ahead (0.5 s): a loop's echoes trail the beats by that much. */
const QUIET_MS = 800;
/** What the editor sends as its id with each command (any text). */
const EDITOR_ID = 'tutti-interop';

/**
 * The loops a Sonic Pi user might write to follow Tutti's beat, by name: `default` as written,
 * with Sonic Pi's default schedule-ahead (0.5 s); `real_time` with `use_real_time` (Sonic Pi's
 * advice for live OSC and MIDI input: no schedule-ahead); `scheduled` with a schedule-ahead of
 * 0.2 s, to be paired with a Tutti target sending 200 ms early (`offset=-200`).
 */
export const SONIC_PI_LOOPS = /** @type {const} */ ({ default: '', real_time: 'use_real_time', scheduled: 'use_sched_ahead_time 0.2' });

/** Sonic Pi code: one live_loop per SONIC_PI_LOOPS entry, echoing each beat to `echoPort`. */
function followCode(echoPort) {
  return Object.entries(SONIC_PI_LOOPS)
    .map(([name, setting]) =>
      [
        `live_loop :tutti_${name} do`,
        ...(setting ? [`  ${setting}`] : []),
        '  b = sync "/osc*/tutti/beat"',
        `  osc_send "127.0.0.1", ${echoPort}, "/echo/${name}", b[0], b[1]`,
        'end',
      ].join('\n'),
    )
    .join('\n');
}

/**
 * Boot Sonic Pi with the follow loops running and its incoming OSC on; resolves once every loop
 * has echoed a probe beat (bar 0, which no show plays).
 * @returns {Promise<{ cuePort: number, loops: Record<keyof typeof SONIC_PI_LOOPS, Array<{ address: string, args: number[], at: number }>>, said: string[], run: (code: string) => void, quiet: () => Promise<void>, erlangLog: () => string, stop: () => Promise<void> }>}
 *   cuePort: where musicians send OSC to Sonic Pi; loops: each loop's beats as `/tutti/beat bar beat`
 *   with when it acted; said: what Sonic Pi told its editor (runs, errors); run: run code as the
 *   editor does; quiet: wait for the last echoes, then forget them; erlangLog: its OSC router's log
 */
export function startSonicPi() {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-sonic-pi-'));
  return onOwnJack('sonic-pi', dir, (env) => bootSonicPi(dir, env));
}

/**
 * Sonic Pi's server in `dir` as a client of the JACK server `env` names (startSonicPi).
 * @param {string} dir its HOME and TMPDIR, removed when it stops
 * @param {NodeJS.ProcessEnv} env
 */
async function bootSonicPi(dir, env) {
  // Its ports in the order sonic-pi-server.rb reads them: its own, the editor's, scsynth's (twice),
  // the cue port, the Erlang router's, MIDI out and in (unused here) and a WebSocket port.
  const ports = [];
  for (let i = 0; i < 8; i += 1) ports.push(await freeUdpPort());
  const [server, editor, scsynth, cuePort, router, midiOut, midiIn, webSocket] = ports;
  const editorSocket = dgram.createSocket('udp4');
  const echoSocket = dgram.createSocket('udp4');
  const control = dgram.createSocket('udp4');
  await Promise.all(
    [editorSocket, echoSocket].map((s, i) => new Promise((r) => s.bind(i === 0 ? editor : 0, '127.0.0.1', () => r(undefined)))),
  );
  /** @type {string[]} */
  const said = [];
  editorSocket.on('message', (bytes) => {
    const text = readEditorMessage(bytes);
    if (text) said.push(text);
  });
  const loops = /** @type {Record<keyof typeof SONIC_PI_LOOPS, Array<{ address: string, args: number[], at: number }>>} */ (
    Object.fromEntries(Object.keys(SONIC_PI_LOOPS).map((name) => [name, []]))
  );
  echoSocket.on('message', (bytes) => {
    const at = wallClock();
    try {
      const m = /** @type {any} */ (decode(bytes));
      const name = /^\/echo\/(\w+)$/.exec(m.address)?.[1];
      if (name && name in loops)
        loops[/** @type {keyof typeof loops} */ (name)].push({ address: '/tutti/beat', args: m.args.map((a) => a.value), at });
    } catch {
      // not an echo
    }
  });

  // HOME: its settings and logs; TMPDIR: where it keeps the pids of what it started, which it
  // stops when it exits (and would stop at its next start, were they still running).
  const child = spawn(
    'ruby',
    [SONIC_PI_SERVER, '-u', ...[server, editor, scsynth, scsynth, cuePort, router, midiOut, midiIn, webSocket].map(String)],
    // A process group of its own: Sonic Pi's Erlang router outlives its server when only the
    // server is signalled (one was left running after each run), so stop ends the whole group.
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, HOME: dir, TMPDIR: dir }, detached: true },
  );
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  const send = (address, ...args) => control.send(encode(new Message(address, EDITOR_ID, ...args)), server, '127.0.0.1');
  const clear = () => Object.values(loops).forEach((received) => received.splice(0));
  /** Wait until no echo has come for longer than a schedule-ahead (a show's last beats trail it), then clear. */
  const quiet = async () => {
    const count = () => Object.values(loops).reduce((n, received) => n + received.length, 0);
    for (let before = -1; before !== count();) {
      before = count();
      await new Promise((r) => setTimeout(r, QUIET_MS));
    }
    clear();
  };
  /** @param {NodeJS.Signals} signal */
  const signalGroup = (signal) => {
    try {
      process.kill(-(/** @type {number} */ (child.pid)), signal);
    } catch {
      // the group is gone
    }
  };
  const stop = async () => {
    if (child.exitCode === null) signalGroup('SIGTERM');
    await exited;
    signalGroup('SIGKILL'); // whatever of the group outlived the server
    for (const socket of [editorSocket, echoSocket, control]) socket.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until(
      () => /Sonic Pi Server successfully booted/.test(output),
      BOOT_TIMEOUT_MS,
      () => child.exitCode !== null,
      () => `Sonic Pi did not boot: ${output.trim()}`,
    );
    send('/run-code', followCode(echoSocket.address().port));
    const probe = dgram.createSocket('udp4');
    try {
      await until(
        () => Object.values(loops).every((received) => received.length > 0),
        20_000,
        () => {
          // The editor's "Enable OSC server" preference: without it the router drops what musicians
          // send. Said again with each probe: the server passes it on to its router over UDP, and
          // once in a run (of 4 here) the router was not listening yet when it came.
          send('/cue-port-start');
          probe.send(encode(new Message('/tutti/beat', 0, 0, 0)), cuePort, '127.0.0.1');
          return child.exitCode !== null;
        },
        () => `Sonic Pi's loops did not follow a probe beat; it said: ${said.join(' | ') || '(nothing)'}`,
        250,
      );
    } finally {
      probe.close();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  clear();
  return {
    cuePort,
    loops,
    said,
    run: (code) => send('/run-code', code),
    quiet,
    erlangLog: () => readFileSync(join(dir, '.sonic-pi', 'log', 'erlang.log'), 'utf8'),
    stop,
  };
}

/**
 * What an editor message says, as text (`/log/info`, `/error`, `/syntax_error`, `/log/multi_message`);
 * null for the scope's and heartbeat's traffic.
 * @param {Buffer} bytes
 */
function readEditorMessage(bytes) {
  let m;
  try {
    m = /** @type {any} */ (decode(bytes));
  } catch {
    return null;
  }
  if (!m.address || !/^\/(log|error|syntax_error)/.test(m.address)) return null;
  return `${m.address} ${m.args.map((a) => String(a.value).trim()).join(' ')}`;
}

/**
 * Wait for `done`, calling `poll` each `everyMs` (true: give up at once, the program has exited).
 * @param {() => boolean} done
 * @param {number} timeoutMs
 * @param {() => boolean} poll
 * @param {() => string} explain the error's message
 */
async function until(done, timeoutMs, poll, explain, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (poll() || Date.now() > deadline) throw new Error(explain());
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
