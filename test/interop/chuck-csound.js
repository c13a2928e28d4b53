// Two more of the musicians' own programs as OSC receivers (docs/reference/test-suites.md#interop-suite):
// ChucK (Debian's `chuck`, an `OscIn` listening for Tutti's addresses, run `--silent` on the
// system clock) and Csound (Debian's `csound`, `OSCinit` / `OSClisten` in an instrument running on
// a JACK server of its own, 64-sample k-cycles at 48 kHz). Each prints a line per message at the
// moment its program takes it in; that line's arrival is what the suite measures.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTool } from './osc-receivers.js';
import { onOwnJack } from './jack.js';

/** `PREFIX: /tutti/beat 3 2 240.000000` → the message (after Csound's terminal colour codes are removed). */
function parsePrinted(prefix) {
  const pattern = new RegExp(`^${prefix}: (\\/\\S+)((?: \\S+)*)$`);
  return (/** @type {string} */ line) => {
    // eslint-disable-next-line no-control-regex -- Csound colours its messages with ESC [ m
    const m = pattern.exec(line.replace(/\x1b\[[0-9;]*m/g, '').trim());
    return m ? { address: m[1], args: m[2].trim().split(' ').filter(Boolean).map(Number) } : null;
  };
}

/**
 * ChucK with a musician's shred: an `OscIn` on `port` for `/tutti/beat` (bar, beat, bpm) and the
 * suite's probe, printing each message as it receives it (`oin => now` wakes the shred).
 * `--silent`: no audio device, ChucK's clock follows the system's.
 * @param {number} port
 */
export function startChuck(port) {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-chuck-'));
  writeFileSync(
    join(dir, 'tutti.ck'),
    [
      'OscIn oin;',
      `${port} => oin.port;`,
      'oin.addAddress("/tutti/beat, iif");',
      'oin.addAddress("/tutti/probe, i");',
      'OscMsg msg;',
      'while (true) {',
      '  oin => now;',
      '  while (oin.recv(msg)) {',
      '    if (msg.address == "/tutti/beat")',
      '      chout <= "CK: " <= msg.address <= " " <= msg.getInt(0) <= " " <= msg.getInt(1) <= " " <= msg.getFloat(2) <= IO.newline();',
      '    else chout <= "CK: " <= msg.address <= " " <= msg.getInt(0) <= IO.newline();',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  return startTool({
    name: 'ChucK',
    command: 'chuck',
    port,
    dir,
    stream: 'stdout',
    args: ['--silent', join(dir, 'tutti.ck')],
    parse: parsePrinted('CK'),
  });
}

/**
 * Csound with a musician's orchestra: `OSCinit` on `port` and an instrument whose `OSClisten`
 * loops take every `/tutti/beat` (and the probe) waiting at each k-cycle, printing each one.
 * Audio goes to JACK (`-+rtaudio=jack`), which paces the k-cycles in real time; `-b 64 -B 256`
 * keeps Csound's own buffering to one JACK period, as a live patch would.
 * @param {number} port
 */
export function startCsound(port) {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-csound-'));
  writeFileSync(
    join(dir, 'tutti.csd'),
    [
      '<CsoundSynthesizer>',
      '<CsOptions>',
      `-odac -+rtaudio=jack -+jack_client=tutti${port} -b 64 -B 256 -d -m0 --nodisplays`,
      '</CsOptions>',
      '<CsInstruments>',
      'sr = 48000',
      'ksmps = 64',
      'nchnls = 2',
      '0dbfs = 1',
      `giPort OSCinit ${port}`,
      'instr 1',
      '  kbar init 0',
      '  kbeat init 0',
      '  kbpm init 0',
      '  kprobe init 0',
      // printf prints when its trigger changes: a count, so two messages in one k-cycle both print.
      '  kn init 0',
      'beat:',
      '  kgot OSClisten giPort, "/tutti/beat", "iif", kbar, kbeat, kbpm',
      '  if (kgot == 0) kgoto probe',
      '  kn += 1',
      '  printf "CS: /tutti/beat %d %d %f\\n", kn, kbar, kbeat, kbpm',
      '  kgoto beat',
      'probe:',
      '  kgotp OSClisten giPort, "/tutti/probe", "i", kprobe',
      '  if (kgotp == 0) kgoto done',
      '  kn += 1',
      '  printf "CS: /tutti/probe %d\\n", kn, kprobe',
      '  kgoto probe',
      'done:',
      'endin',
      '</CsInstruments>',
      '<CsScore>',
      'i 1 0 36000',
      '</CsScore>',
      '</CsoundSynthesizer>',
      '',
    ].join('\n'),
  );
  return onOwnJack(String(port), dir, (env) =>
    startTool({
      name: 'Csound',
      command: 'csound',
      port,
      dir,
      env,
      stream: 'stderr',
      args: [join(dir, 'tutti.csd')],
      parse: parsePrinted('CS'),
    }),
  );
}
