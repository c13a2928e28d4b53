// `tutti` whose output nobody reads any more: `tutti import piece.mid | head -2` and a venue
// server whose stdout closes mid-show (journald restarting under systemd, a `| tee` ended). Node
// fails the next write with EPIPE; before local-server/src/cli/closed-output.js that crashed the
// process with a stack trace, the show with it. Real processes, real pipes.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../../support/clients.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = path.join(root, 'local-server', 'bin', 'tutti.js');
const TOKEN = 'closed-output-token-0123';
const dir = mkdtempSync(path.join(os.tmpdir(), 'tutti-closed-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Start `tutti ARGS`; this side closes its end of stdout once it has read `closeAfter` (null: at once). */
function start(args, closeAfter) {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, env: { ...process.env, XDG_STATE_HOME: dir } });
  let stdout = '';
  let stderr = '';
  const closed = new Promise((resolve) => {
    if (closeAfter === null) {
      child.stdout.destroy();
      resolve('');
    }
    child.stdout.on('data', (d) => {
      stdout += d;
      if (closeAfter.test(stdout)) {
        child.stdout.destroy(); // what `head` does once it has its lines
        resolve(stdout);
      }
    });
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise((resolve) => child.on('close', (code) => resolve(code)));
  return { child, closed, exited, stderr: () => stderr };
}

test('tutti import with nobody reading its output: the score is written and the exit is 0, with no stack trace', async () => {
  const out = path.join(dir, 'reel.score.json');
  const midi = path.join(root, 'test', 'fixtures', 'notation-writers', 'upbeat-reel.mid');
  const run = start(['import', midi, '--out', out], null);
  await run.closed;
  expect(await run.exited).toBe(0);
  expect(run.stderr()).toBe('');
  expect(JSON.parse(readFileSync(out, 'utf8')).bars).toBe(9);
});

test("tutti serve whose stdout's reader is gone keeps playing and answering its control API", async () => {
  const run = start(
    ['serve', '--host', '127.0.0.1', '--port', '0', '--control-port', '0', '--token', TOKEN, '--no-record'],
    /Control API[^\n]*\n/,
  );
  const banner = await run.closed;
  const control = /Control API[^:]*:\s*(http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
  expect(control).toBeDefined();
  const api = (method, route, body) =>
    fetch(`${control}${route}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
  try {
    // Every transport action is a line on stdout, which now goes nowhere.
    for (const action of ['play', 'pause', 'play']) expect((await api('POST', '/api/transport', { action })).status).toBe(200);
    await waitFor(async () => (await (await api('GET', '/api/status')).json()).position?.bar >= 1, 5000, 'the show playing');
    await new Promise((r) => setTimeout(r, 500)); // the writes after the close have failed by now
    expect(run.child.exitCode).toBeNull();
    const status = await (await api('GET', '/api/status')).json();
    expect(status.transport ?? status.state).toBeDefined();
    expect(run.stderr()).not.toMatch(/EPIPE/);
  } finally {
    run.child.kill('SIGTERM');
    await run.exited;
  }
}, 30_000);
