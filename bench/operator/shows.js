// Where `npm run bench:operator` sends its phones: the venue's show server alone in a process of
// its own (bench/fanout/show-server.js), or, with `--target edge`, that show mirrored to the edge
// worker on local workerd (docs/explanation/lean-stream.md#how-it-works), the phones on the edge's
// /ws. Both give the control API the operator uses and the phones' URL.

import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { forkWorker } from '../lib/children.js';
import { startShowServer } from '../../local-server/index.js';
import { startLocalEdge } from '../../edge-worker/scripts/local-edge.js';

const SHOW_SERVER = fileURLToPath(new URL('../fanout/show-server.js', import.meta.url));
/** WebSocket viewers per edge shard in the bench (several shards, as a large show has). */
const EDGE_SHARD_CAPACITY = 2500;

/**
 * @typedef {{ controlUrl: string, wsUrl: string, pid: number | null, stop: () => Promise<void> }} RunningShow
 *   pid: the process whose CPU is the server's (null on the edge: workerd runs under a wrapper)
 */

/**
 * The venue's show server in its own process.
 * @param {{ scorePath: string, token: string, stream: 'lean' | 'full', lookAheadDelay?: number | null }} options
 *   lookAheadDelay: the show's look-ahead delay on the lean stream (null: the server's default)
 * @returns {Promise<RunningShow>}
 */
async function startVenueShow({ scorePath, token, stream, lookAheadDelay = null }) {
  const delay = lookAheadDelay === null ? [] : ['--look-ahead-delay', String(lookAheadDelay)];
  const server = forkWorker(SHOW_SERVER, {
    name: 'show server',
    // `--token=` form: a base64url token may start with "-", which parseArgs would take for a flag.
    args: ['--score', scorePath, `--token=${token}`, '--stream', stream, ...delay],
  });
  try {
    const ready = await server.waitFor('ready', 60_000);
    return { controlUrl: ready.controlUrl, wsUrl: ready.wsUrl, pid: server.pid, stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * A fresh local edge and a show server (in this process) mirroring to it.
 * @param {{ scorePath: string, token: string, stream: 'lean' | 'full', viewers: number, lookAheadDelay?: number | null }} options
 *   lookAheadDelay: the edge root's look-ahead delay on its lean stream (null: the edge's default)
 * @returns {Promise<RunningShow>}
 */
async function startEdgeShow({ scorePath, token, stream, viewers, lookAheadDelay = null }) {
  const edgeToken = randomBytes(16).toString('hex');
  const shardCount = Math.max(4, Math.ceil(viewers / EDGE_SHARD_CAPACITY) + 1);
  const edge = await startLocalEdge({
    token: edgeToken,
    persistDir: false,
    vars: {
      SHARD_CAPACITY: EDGE_SHARD_CAPACITY,
      SHARD_COUNT: shardCount,
      ...(lookAheadDelay === null ? {} : { LOOK_AHEAD_DELAY_MS: lookAheadDelay }),
    },
    direct: true,
  });
  let server = null;
  try {
    server = await startShowServer({
      scorePath,
      host: '127.0.0.1',
      port: 0,
      controlPort: 0,
      token,
      autoplay: true,
      oscTargets: [],
      edgeUrl: edge.url,
      edgeToken,
      stateFile: null,
      logFile: null,
    });
    for (let i = 0; i < 200 && !server.status().edge.connected; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    if (!server.status().edge.connected) throw new Error('the show server did not connect to the edge');
  } catch (error) {
    await server?.close();
    await edge.stop();
    throw error;
  }
  const running = /** @type {NonNullable<typeof server>} */ (server);
  return {
    controlUrl: running.controlUrl,
    wsUrl: `${edge.url.replace(/^http/, 'ws')}/ws?stream=${stream}`,
    pid: null,
    async stop() {
      await running.close();
      await edge.stop();
    },
  };
}

/**
 * @param {'venue' | 'edge'} target
 * @param {{ scorePath: string, token: string, stream: 'lean' | 'full', viewers: number, lookAheadDelay?: number | null }} options
 *   lookAheadDelay: the lean stream's look-ahead delay of the server the phones read (the venue's, or the edge root's)
 * @returns {Promise<RunningShow>}
 */
export const startShow = (target, options) => (target === 'edge' ? startEdgeShow(options) : startVenueShow(options));
