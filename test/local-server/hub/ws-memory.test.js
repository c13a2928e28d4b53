// What the server keeps per WebSocket viewer (issue 27: memory per 1,000 viewers): 600 viewers in
// another process, and the live objects of the upgrade's HTTP exchange counted in the server's
// heap (v8.queryObjects collects garbage first). The upgrade's request, its ServerResponse and
// Fastify's request and reply used to stay alive for the whole show, one set per viewer
// (≈ 2.8 KB of heap each); hub/ws-frame.js releaseUpgradeState lets them go. A viewer's frame,
// resync, vote and tap budgets are made when first used (≈ 1.5 KB for one that never sends).

import { fork } from 'node:child_process';
import { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { queryObjects, writeHeapSnapshot } from 'node:v8';
import { startShowServer } from '../../../local-server/src/server.js';
import { waitFor, wsUrl } from '../../support/clients.js';

const VIEWERS = 600;

/**
 * Live closures with this name, from a heap snapshot of this process.
 * @param {string} name
 */
function closuresNamed(name) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tutti-ws-memory-'));
  try {
    const snapshot = JSON.parse(readFileSync(writeHeapSnapshot(path.join(dir, 'h.heapsnapshot')), 'utf8'));
    const fields = snapshot.snapshot.meta.node_fields;
    const closure = snapshot.snapshot.meta.node_types[0].indexOf('closure');
    const [typeAt, nameAt] = [fields.indexOf('type'), fields.indexOf('name')];
    let count = 0;
    for (let i = 0; i < snapshot.nodes.length; i += fields.length)
      if (snapshot.nodes[i + typeAt] === closure && snapshot.strings[snapshot.nodes[i + nameAt]] === name) count += 1;
    return count;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** @param {Function} ctor live instances (and subclass instances) after a GC */
const live = (ctor) => /** @type {number} */ (queryObjects(ctor, { format: 'count' }));

test('a WebSocket viewer keeps none of its upgrade request alive, and no budget it has not used', async () => {
  const server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token: 'test-token-ws-memory', autoplay: true });
  const child = fork(new URL('../../support/ws-viewers-process.js', import.meta.url), [wsUrl(server.audienceUrl), String(VIEWERS)]);
  try {
    const before = { requests: live(IncomingMessage), responses: live(ServerResponse), budgets: closuresNamed('take') };
    await new Promise((resolve, reject) => {
      child.on('message', (m) => (m.open ? resolve(m) : reject(new Error(m.error))));
      child.once('exit', (code) => reject(new Error(`viewers exited ${code}`)));
    });
    // Every viewer registered (its join snapshot sent), and a few beats out after that.
    await waitFor(() => server.show.hub.counts().ws === VIEWERS, 20_000, 'every viewer registered');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const kept = { requests: live(IncomingMessage) - before.requests, responses: live(ServerResponse) - before.responses };
    // Without the release: one of each per viewer (600).
    expect(kept.requests).toBeLessThan(VIEWERS / 20);
    expect(kept.responses).toBeLessThan(VIEWERS / 20);
    // Token buckets (each has a `take`): none for viewers that never sent a frame; 4 each when
    // every viewer got its frame, resync, vote and tap budgets at the join.
    expect(closuresNamed('take') - before.budgets).toBeLessThan(VIEWERS / 20);
  } finally {
    child.kill();
    await server.close();
  }
  // Two heap snapshots of a Jest worker: ~7 s on a quiet machine, over 30 s beside the rest of the suite.
}, 120_000);
