// What the server keeps per WebSocket viewer (issue 27: memory per 1,000 viewers): 600 viewers in
// another process, and the live objects of the upgrade's HTTP exchange counted in the server's
// heap (v8.queryObjects collects garbage first). The upgrade's request, its ServerResponse and
// Fastify's request and reply used to stay alive for the whole show, one set per viewer
// (≈ 2.8 KB of heap each); hub/ws-frame.js releaseUpgradeState lets them go.

import { fork } from 'node:child_process';
import { IncomingMessage, ServerResponse } from 'node:http';
import { queryObjects } from 'node:v8';
import { startShowServer } from '../../local-server/src/server.js';
import { wsUrl } from '../support/clients.js';

const VIEWERS = 600;

/** @param {Function} ctor live instances (and subclass instances) after a GC */
const live = (ctor) => /** @type {number} */ (queryObjects(ctor, { format: 'count' }));

test('a WebSocket viewer keeps none of its upgrade request alive', async () => {
  const server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token: 'test-token-ws-memory', autoplay: true });
  const child = fork(new URL('../support/ws-viewers-process.js', import.meta.url), [wsUrl(server.audienceUrl), String(VIEWERS)]);
  try {
    const before = { requests: live(IncomingMessage), responses: live(ServerResponse) };
    await new Promise((resolve, reject) => {
      child.on('message', (m) => (m.open ? resolve(m) : reject(new Error(m.error))));
      child.once('exit', (code) => reject(new Error(`viewers exited ${code}`)));
    });
    await new Promise((resolve) => setTimeout(resolve, 500)); // join snapshots drain, beats go out
    expect(server.show.hub.counts().ws).toBe(VIEWERS);
    const kept = { requests: live(IncomingMessage) - before.requests, responses: live(ServerResponse) - before.responses };
    // Without the release: one of each per viewer (600).
    expect(kept.requests).toBeLessThan(VIEWERS / 20);
    expect(kept.responses).toBeLessThan(VIEWERS / 20);
  } finally {
    child.kill();
    await server.close();
  }
}, 30_000);
