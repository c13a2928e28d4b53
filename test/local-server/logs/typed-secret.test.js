// An edge token typed into the console while the show runs is hidden like the tokens given at
// start (local-server/src/logs/secrets.js, docs/how-to/venue-server-unattended.md#logs): a log line that quotes it shows `***` in
// the terminal's log, the JSON log file, the console's log view and the performance record. Real
// show server with a real log file and record folder; the line is logged through the server's
// own log, as any part of the server would (an upstream error that echoes the token, say).
import { afterAll, expect, test } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLog } from '../../../local-server/src/logs/log.js';
import { readRecord } from '../../../local-server/src/record/record-reader.js';
import { startShow } from '../../support/show.js';
import { recorderOf } from '../../support/recorder.js';

const TYPED = 'edge-token-typed-in-the-console';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-typed-secret-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a typed-in edge token never reaches the terminal, the log file, the console or the record', async () => {
  const logFile = path.join(dir, 'tutti.log');
  const terminal = createLog();
  const server = await startShow({ autoplay: false, logFile, log: terminal });
  const control = (method, route, body) =>
    fetch(`${server.controlUrl}${route}`, {
      method,
      headers: { authorization: 'Bearer test-token', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  let record;
  try {
    const recorder = await recorderOf(server, path.join(dir, 'records'));
    const on = await control('POST', '/api/edge', { url: 'http://127.0.0.1:9/', token: TYPED });
    expect(on.status).toBe(200);
    server.log.warn(`edge: upstream refused ${TYPED}`);
    await recorder.sample();
    const view = await (await control('GET', '/api/log')).json();
    expect(view.entries.map((e) => e.msg)).toContain('edge: upstream refused ***');
    await control('DELETE', '/api/edge');
    await recorder.close();
    record = readRecord(recorder.dir);
  } finally {
    await server.close();
  }
  expect(terminal.recent().map((e) => e.msg)).toContain('edge: upstream refused ***');
  expect(JSON.stringify(terminal.recent())).not.toContain(TYPED);
  const file = fs.readFileSync(logFile, 'utf8');
  expect(file).toContain('edge: upstream refused ***');
  expect(file).not.toContain(TYPED);
  const logged = record.entries.filter((e) => e.k === 'log').map((e) => e.msg);
  expect(logged).toContain('edge: upstream refused ***');
  expect(JSON.stringify(record.entries)).not.toContain(TYPED);
});
