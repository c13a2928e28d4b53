// The musicians' own tools sending OSC to `tutti serve --osc-in` (README.md, "Interoperability
// suite"), each the way it encodes numbers: liblo's `oscsend` with the types it is told (here the
// 64-bit ones, `d` and `h`), SuperCollider's sclang (`NetAddr.sendMsg`: an Integer goes as `i`,
// a Float as `f`) and Pd vanilla (`[oscformat]`: every number as a float `f`). Each resolves
// once the tool has sent and exited.

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
  const dir = mkdtempSync(join(tmpdir(), 'tutti-sclang-send-'));
  try {
    const script = join(dir, 'send.scd');
    writeFileSync(
      script,
      [
        '(',
        `var n = NetAddr("127.0.0.1", ${port});`,
        ...messages.map((m) => `n.sendMsg(${m});`),
        '"SC: SENT".postln;',
        '0.exit;',
        ')',
        '',
      ].join('\n'),
    );
    await run('sclang', ['-D', script], { env: sclangEnvironment(dir) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Pd vanilla sends one message at load: `[loadbang]` → the numbers → `[oscformat …]` →
 * `[netsend -u -b]`, as a patch would; Pd is stopped once it says it sent.
 * @param {number} port
 * @param {string} address e.g. "/tutti/seek"
 * @param {number[]} numbers
 */
export async function pdSend(port, address, numbers) {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-pd-send-'));
  try {
    const patch = join(dir, 'send.pd');
    writeFileSync(
      patch,
      [
        '#N canvas 0 0 450 300 12;',
        '#X obj 10 10 loadbang;',
        '#X obj 10 40 t b b b;',
        `#X msg 200 70 connect 127.0.0.1 ${port};`,
        `#X msg 10 70 ${numbers.join(' ')};`,
        `#X obj 10 100 oscformat ${address.split('/').filter(Boolean).join(' ')};`,
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
      ].join('\n'),
    );
    await run('pd', ['-nogui', '-nosound', '-nomidi', '-noprefs', '-stderr', '-open', patch], {
      done: (output) => output.includes('PD: SENT'),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
