// The musicians' own tools sending OSC to `tutti serve --osc-in` (docs/reference/test-suites.md#interop-suite)
// each the way it encodes numbers: liblo's `oscsend` with the types it is told (here the
// 64-bit ones, `d` and `h`), SuperCollider's sclang (`NetAddr.sendMsg`: an Integer goes as `i`,
// a Float as `f`), Pd vanilla (`[oscformat]`: every number as a float `f`), Pd with pd-osc's
// `[packOSC]` (a bundle; whole numbers as `i`), ChucK (`OscOut`: an
// int as `i`, a float as the 32-bit `f`) and Csound (`OSCsend` with the types it is given, here
// the 64-bit `d`). Each resolves once the tool has sent and exited.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sclangEnvironment } from './osc-receivers.js';

/**
 * Run a tool to its end (or kill it after `timeoutMs`); rejects with its output when it fails.
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, timeoutMs?: number, done?: (output: string) => boolean }} [options]
 *   done: the tool has done its part (for one that does not exit by itself, as Pd): it is then stopped
 */
function run(command, args, { env = process.env, timeoutMs = 15_000, done } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    const collect = (chunk) => {
      output = (output + chunk).slice(-4000);
      if (done?.(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0 || (signal === 'SIGTERM' && done)) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} ended with ${code ?? signal}: ${output.trim() || '(no output)'}`));
    });
  });
}

/**
 * Write `text` to `name` in a fresh temporary directory, run `use` with its path and that
 * directory, and remove the directory whatever happens.
 * @template T
 * @param {string} name e.g. "send.scd"
 * @param {string} text
 * @param {(path: string, dir: string) => Promise<T>} use
 * @returns {Promise<T>}
 */
async function withScript(name, text, use) {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-send-'));
  try {
    const path = join(dir, name);
    writeFileSync(path, text);
    return await use(path, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * liblo's oscsend: one message with explicit type tags, e.g. `('d', [100.5])`.
 * @param {number} port
 * @param {string} address
 * @param {string} types
 * @param {Array<string | number>} values
 */
export function oscsend(port, address, types, values) {
  return run('oscsend', ['127.0.0.1', String(port), address, types, ...values.map(String)]);
}

/**
 * sclang sends each `[address, ...args]` with `NetAddr.sendMsg` (SuperCollider literals: 90 is
 * an Integer, 90.5 a Float, \A a Symbol), then exits.
 * @param {number} port
 * @param {string[]} messages each a sclang argument list, e.g. `"'/tutti/tempo', 90"`
 */
export async function sclangSend(port, messages) {
  const script = [
    '(',
    `var n = NetAddr("127.0.0.1", ${port});`,
    ...messages.map((m) => `n.sendMsg(${m});`),
    '"SC: SENT".postln;',
    '0.exit;',
    ')',
    '',
  ].join('\n');
  await withScript('send.scd', script, (path, dir) => run('sclang', ['-D', path], { env: sclangEnvironment(dir) }));
}

/**
 * A Pd patch that, at load, connects `[netsend -u -b]`, sends `message` through the `encoder`
 * object (which turns it into OSC bytes) and prints "PD: SENT"; Pd is stopped once it has.
 * @param {number} port
 * @param {string} message the message box's text (Pd syntax: `\\,` between messages)
 * @param {string} encoder e.g. "oscformat tutti seek"
 */
async function pdSendThrough(port, message, encoder) {
  const patch = [
    '#N canvas 0 0 450 300 12;',
    '#X obj 10 10 loadbang;',
    '#X obj 10 40 t b b b;',
    `#X msg 200 70 connect 127.0.0.1 ${port};`,
    `#X msg 10 70 ${message};`,
    `#X obj 10 100 ${encoder};`,
    '#X obj 10 130 list prepend send;',
    '#X obj 10 160 list trim;',
    '#X obj 200 190 netsend -u -b;',
    '#X msg 100 70 SENT;',
    '#X obj 100 100 print PD;',
    '#X connect 0 0 1 0;',
    '#X connect 1 0 8 0;',
    '#X connect 1 1 3 0;',
    '#X connect 1 2 2 0;',
    '#X connect 2 0 7 0;',
    '#X connect 3 0 4 0;',
    '#X connect 4 0 5 0;',
    '#X connect 5 0 6 0;',
    '#X connect 6 0 7 0;',
    '#X connect 8 0 9 0;',
    '',
  ].join('\n');
  await withScript('send.pd', patch, (path) =>
    run('pd', ['-nogui', '-nosound', '-nomidi', '-noprefs', '-stderr', '-open', path], {
      done: (output) => output.includes('PD: SENT'),
    }),
  );
}

/**
 * Pd vanilla sends one message at load: the numbers → `[oscformat …]` → `[netsend -u -b]`, as a
 * patch would (every number goes as a float `f`).
 * @param {number} port
 * @param {string} address e.g. "/tutti/seek"
 * @param {number[]} numbers
 */
export function pdSend(port, address, numbers) {
  return pdSendThrough(port, numbers.join(' '), `oscformat ${address.split('/').filter(Boolean).join(' ')}`);
}

/**
 * Pd with Martin Peach's `[packOSC]` (Debian's pd-osc) sends one bundle holding `messages`:
 * `[ , send /tutti/tempo 88.5 , send /tutti/seek 15 3 , ]`, the bundle syntax of packOSC's help
 * patch. packOSC types each number itself: a whole number as `i`, any other as `f`.
 * @param {number} port
 * @param {Array<[string, ...number[]]>} messages
 */
export function pdPackOscSend(port, messages) {
  const bundle = ['[', ...messages.map(([address, ...numbers]) => ['send', address, ...numbers].join(' ')), ']'].join(' \\, ');
  return pdSendThrough(port, bundle, 'osc/packOSC');
}

/**
 * ChucK sends each `[address, ...values]` with `OscOut` (ChucK literals: 9 is an int, sent as
 * `i`; 96.5 a float, sent as `f`), then exits.
 * @param {number} port
 * @param {Array<[string, ...string[]]>} messages e.g. `['/tutti/tempo', '96.5']`
 */
export async function chuckSend(port, messages) {
  const shred = [
    'OscOut xmit;',
    `xmit.dest("127.0.0.1", ${port});`,
    ...messages.map(([address, ...values]) => `xmit.start("${address}"); ${values.map((v) => `${v} => xmit.add; `).join('')}xmit.send();`),
    '',
  ].join('\n');
  await withScript('send.ck', shred, (path) => run('chuck', ['--silent', path]));
}

/**
 * Csound sends each message once, from an instrument's first k-cycle, with `OSCsend` and the
 * type string it is given (`d`: a 64-bit float), then the score ends. No audio (`-n`).
 * @param {number} port
 * @param {Array<{ address: string, types: string, values: number[] }>} messages
 */
export async function csoundSend(port, messages) {
  const orchestra = [
    '<CsoundSynthesizer>',
    '<CsOptions>',
    '-n -d -m0',
    '</CsOptions>',
    '<CsInstruments>',
    'sr = 48000',
    'ksmps = 64',
    'instr 1',
    ...messages.map((m) => `  OSCsend 1, "127.0.0.1", ${port}, "${m.address}", "${m.types}", ${m.values.join(', ')}`),
    'endin',
    '</CsInstruments>',
    '<CsScore>',
    'i 1 0 0.1',
    '</CsScore>',
    '</CsoundSynthesizer>',
    '',
  ].join('\n');
  await withScript('send.csd', orchestra, (path) => run('csound', [path]));
}
