// Secrets in every escaped form (local-server/src/logs/secrets.js, issue 40 item 11): a control token
// holding `"` or `\` is written to tutti.log escaped by JSON, and was found there in clear; an
// edge's error body that echoes the Authorization header reached /api/status. Real servers, a
// real log file, a real HTTP "edge" on 127.0.0.1.
import { afterAll, expect, test } from '@jest/globals';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startShow } from '../../support/show.js';
import { waitFor } from '../../support/clients.js';
import { createLog } from '../../../local-server/src/logs/log.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-redaction-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const TOKEN = 'a"quoted\\token-with-both';
const escaped = (s) => JSON.stringify(s).slice(1, -1);

test('a token with a quote and a backslash never reaches the log file, once or twice escaped', async () => {
  const file = path.join(dir, 'tutti.log');
  const log = createLog({ redact: [TOKEN] }); // as the CLI makes it (cli.js)
  const server = await startShow({ token: TOKEN, logFile: file, log });
  try {
    server.log.warn(`a line that quotes ${TOKEN} by mistake`);
    server.log.info(`a body logged as it came: ${JSON.stringify({ token: TOKEN })}`);
    // A wrong token in a request Fastify logs nothing of; a right one in a URL is percent-encoded.
    server.log.warn(`GET /x?token=${encodeURIComponent(TOKEN)}`);
  } finally {
    await server.close();
  }
  const text = fs.readFileSync(file, 'utf8');
  for (const form of [TOKEN, escaped(TOKEN), escaped(escaped(TOKEN)), encodeURIComponent(TOKEN)]) expect(text).not.toContain(form);
  const msgs = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).msg);
  expect(msgs).toContain('a line that quotes *** by mistake');
  expect(msgs).toContain('a body logged as it came: {"token":"***"}');
  expect(msgs).toContain('GET /x?token=***');
  // The printed log too.
  expect(log.recent().map((e) => e.msg)).toContain('a line that quotes *** by mistake');
  expect(log.recent().map((e) => e.msg)).toContain('a body logged as it came: {"token":"***"}');
});

test("the edge's error echoing the Authorization header is redacted in /api/status", async () => {
  const edgeToken = 'edge-"token\\-secret-1234';
  /** An "edge" that refuses everything, echoing the headers it got (as a misconfigured proxy might). */
  const fake = http.createServer((req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'UNAUTHORIZED', message: `refused: ${req.headers.authorization}` }));
  });
  fake.on('upgrade', (req, socket) => socket.end(`HTTP/1.1 401 Unauthorized\r\n\r\nrefused: ${req.headers.authorization}`));
  await new Promise((resolve) => fake.listen(0, '127.0.0.1', () => resolve(undefined)));
  const server = await startShow({ autoplay: false });
  const control = (url, init = {}) =>
    fetch(`${server.controlUrl}${url}`, {
      ...init,
      headers: { authorization: 'Bearer test-token', 'content-type': 'application/json', ...init.headers },
    });
  try {
    const edgeUrl = `http://127.0.0.1:${/** @type {any} */ (fake.address()).port}`;
    expect((await control('/api/edge', { method: 'POST', body: JSON.stringify({ url: edgeUrl, token: edgeToken }) })).status).toBe(200);
    // A score load compares its media with the edge: the edge refuses, echoing the header.
    const scorePath = path.resolve('scores/demo.score.json');
    expect((await control('/api/score', { method: 'POST', body: JSON.stringify({ path: scorePath }) })).status).toBe(200);
    const status = await waitFor(
      async () => {
        const s = await (await control('/api/status')).json();
        return s.edge.media?.lastError ? s : null;
      },
      10_000,
      'the media sync to fail',
    );
    expect(status.edge.media.lastError).toMatch(/^SYNC: 401 UNAUTHORIZED refused: Bearer \*\*\*/);
    const all = JSON.stringify(status);
    for (const form of [edgeToken, escaped(edgeToken)]) expect(all).not.toContain(form);
  } finally {
    await server.close();
    fake.close();
  }
});
