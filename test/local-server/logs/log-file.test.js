// The log file (local-server/src/logs/log-file.js, docs/how-to/venue-server-unattended.md#logs): an audience-side 500 is written
// with its stack (it used to go nowhere), secrets never reach the file, the file rotates by size
// and keeps a few, and /metrics carries the process metrics (event-loop lag). Real servers,
// real files in a temp dir.
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startShow } from '../../support/show.js';
import { createLog } from '../../../local-server/src/logs/log.js';
import { openRotatingFile } from '../../../local-server/src/logs/log-file.js';

let dir;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tutti-log-file-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lines = async (file) =>
  (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

test('a forced audience-side 500 is in the log file with its stack; the token never is', async () => {
  const file = path.join(dir, 'tutti.log');
  const log = createLog();
  const server = await startShow({ token: 'secret-control-token', logFile: file, log });
  try {
    // Break the hub so /poll throws inside the route: the server answers 500.
    server.show.hub.poll = () => {
      throw new Error('poll exploded (test)');
    };
    const res = await fetch(`${server.audienceUrl}/poll`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'ERROR', message: 'internal error' }); // nothing internal to the phone
    server.log.info('a line that quotes secret-control-token by mistake');
  } finally {
    await server.close();
  }
  const entries = await lines(file);
  const failure = entries.find((e) => e.msg === 'audience request failed');
  expect(failure).toMatchObject({ level: 50, listener: 'audience', method: 'GET', url: '/poll' });
  expect(failure.err.message).toBe('poll exploded (test)');
  expect(failure.err.stack).toMatch(/poll exploded \(test\)\n\s+at /);
  // The terminal/console log says it in one line too.
  expect(log.recent().map((e) => e.msg)).toContain('audience GET /poll failed: poll exploded (test)');
  const text = await readFile(file, 'utf8');
  expect(text).not.toContain('secret-control-token');
  expect(text).toContain('a line that quotes *** by mistake');
  expect(entries.at(-1).msg).toBe('show server stopped');
});

test('the file rotates by size and keeps a few', async () => {
  const file = path.join(dir, 'tutti.log');
  const out = openRotatingFile({ file, maxBytes: 300, keep: 2 });
  for (let i = 0; i < 40; i += 1) out.write(`${JSON.stringify({ n: i, msg: 'x'.repeat(40) })}\n`);
  out.close();
  expect((await readdir(dir)).sort()).toEqual(['tutti.log', 'tutti.log.1', 'tutti.log.2']);
  for (const name of ['tutti.log', 'tutti.log.1', 'tutti.log.2']) expect((await stat(path.join(dir, name))).size).toBeLessThanOrEqual(300);
  // The newest line is in tutti.log, older ones in .1 and .2, whole lines only.
  expect((await lines(file)).at(-1).n).toBe(39);
  const older = await lines(`${file}.1`);
  expect(older.at(-1).n).toBe((await lines(file))[0].n - 1);
});

test('/metrics carries the process metrics, event-loop lag first of all', async () => {
  const server = await startShow({ token: 't0ken-metrics' });
  try {
    const text = await (await fetch(`${server.controlUrl}/metrics`, { headers: { authorization: 'Bearer t0ken-metrics' } })).text();
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d/m);
    expect(text).toMatch(/^tutti_state_seq \d/m);
  } finally {
    await server.close();
  }
});
