// What `tutti serve` prints to a terminal shows control characters, never sends them (issue 40
// item 12): an OSC-in address and a /tutti/start string carrying ESC sequences (an OSC 52
// clipboard write, a screen clear, a line erase) reach the log as `\x1b`, over real UDP to a
// real `tutti serve` process.
import { afterAll, expect, test } from '@jest/globals';
import dgram from 'node:dgram';
import { serveProcesses } from '../../support/serve-process.js';
import { waitFor } from '../../support/clients.js';
import { message, str } from '../../support/osc-bytes.js';
import { visibleControls } from '../../../local-server/src/cli/terminal-text.js';

const processes = serveProcesses({ token: 'terminal-escapes-token', prefix: 'tutti-terminal-' });
afterAll(() => processes.cleanUp());

const CLIPBOARD = '\u001b]52;c;ZXZpbA==\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const ERASE = '\r\u001b[2K\u009b31m';

test('OSC-in addresses and /tutti/start strings with ESC sequences are printed visibly', async () => {
  const served = await processes.serve(['--osc-in', '0', '--no-record', '--no-resume', '--no-log-file']);
  const port = Number(/OSC in:\s+udp port (\d+)/.exec(served.output())?.[1]);
  expect(port).toBeGreaterThan(0);
  const socket = dgram.createSocket('udp4');
  try {
    const send = (bytes) => new Promise((resolve) => socket.send(bytes, port, '127.0.0.1', resolve));
    await send(message(`/x${CLIPBOARD}${CLEAR}`, ''));
    await send(message('/tutti/start', 's', str(`no${ERASE}such`)));
    await waitFor(
      () => /not a Tutti command/.test(served.output()) && /OSC-in \/tutti\/start/.test(served.output()),
      10_000,
      'both warnings',
    );
  } finally {
    socket.close();
    await served.stop();
  }
  const out = served.output();
  // No control character but newlines (and tabs) reached the terminal…
  // eslint-disable-next-line no-control-regex -- no control character may be printed
  expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  // …and each one is there to read.
  expect(out).toContain(`/x${visibleControls(CLIPBOARD + CLEAR)}`);
  expect(out).toContain('\\x1b]52;c;ZXZpbA==\\x07');
  expect(out).toContain('no\\x0d\\x1b[2K\\x9b31msuch');
});

test('visibleControls keeps text, newlines and tabs, and escapes C0, DEL and C1', () => {
  expect(visibleControls('Bar 9\tbeat 1\nnext — ♩ = 96')).toBe('Bar 9\tbeat 1\nnext — ♩ = 96');
  expect(visibleControls('\u0000\u001b\u007f\u0085\u009f')).toBe('\\x00\\x1b\\x7f\\x85\\x9f');
});
