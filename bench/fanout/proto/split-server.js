// Prototype (not the product): fan-out split over several processes, to measure how much of
// the real server's fan-out time two cores can take off a single event loop. The primary runs
// the same score engine and state stream as the real server (identical envelopes) and sends
// each one over IPC to K workers (split-worker.js), which share the audience port with
// SO_REUSEPORT. Used by run.js as impl "proto-split" (K = 2) and "proto-single" (K = 1, the
// same code in one worker, for an apples-to-apples comparison).
//
// argv: --score FILE --workers K

import net from 'node:net';
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { createShowEngine } from '#core/engine/engine.js';
import { createStateStream } from '#core/stream/state-stream.js';
import { loadScoreFile } from '../../../local-server/index.js';
import { serveParent, tellParent } from '../../lib/child-ipc.js';

const { values } = parseArgs({ options: { score: { type: 'string' }, workers: { type: 'string', default: '2' } } });
const count = Number(values.workers);
const now = () => performance.timeOrigin + performance.now();

const loaded = await loadScoreFile(/** @type {string} */ (values.score));
if (!loaded.ok) throw new Error(`score ${values.score}: ${JSON.stringify(loaded.problems)}`);

// A free port for every worker to share (SO_REUSEPORT needs a fixed number).
const port = await new Promise((resolve, reject) => {
  const probe = net.createServer();
  probe.once('error', reject);
  probe.listen(0, '127.0.0.1', () => {
    const p = /** @type {import('node:net').AddressInfo} */ (probe.address()).port;
    probe.close(() => resolve(p));
  });
});

const workerPath = fileURLToPath(new URL('./split-worker.js', import.meta.url));
const workers = Array.from({ length: count }, () =>
  fork(workerPath, ['--port', String(port)], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
);
const kill = () => workers.forEach((w) => w.kill('SIGKILL'));
process.on('exit', kill);
const next = (w, type) =>
  new Promise((resolve, reject) => {
    const onMessage = (m) => {
      if (m?.type === type) {
        w.off('message', onMessage);
        resolve(m);
      }
    };
    w.on('message', onMessage);
    w.once('exit', () => reject(new Error(`fan-out worker ${w.pid} exited`)));
  });
await Promise.all(workers.map((w) => next(w, 'listening')));

const stream = createStateStream({ epoch: randomBytes(6).toString('base64url'), state: {}, now });
const send = (seq, json) => {
  const message = { type: 'update', seq, json, snapshot: stream.snapshot().json };
  for (const w of workers) w.send(message);
};
const engine = createShowEngine({
  score: loaded.score,
  now,
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (handle) => clearTimeout(/** @type {any} */ (handle)),
  onState: (state) => {
    const update = stream.update(state);
    if (update) send(update.seq, update.json);
  },
  onTransport: (transport) => {
    if (transport === 'stopped') setTimeout(() => engine.play(), 0);
  },
});
stream.reset(stream.epoch(), engine.state());
send(0, stream.snapshot().json);
engine.play();

serveParent(
  {
    async 'window-start'() {
      const replies = await Promise.all(
        workers.map((w) => {
          const reply = next(w, 'window-start');
          w.send({ type: 'window-start' });
          return reply;
        }),
      );
      return { seq: stream.seq(), clients: { ws: replies.reduce((a, r) => a + r.clients, 0) } };
    },
    async 'window-end'() {
      const seq = stream.seq();
      const replies = await Promise.all(
        workers.map((w) => {
          const reply = next(w, 'window-end');
          w.send({ type: 'window-end' });
          return reply;
        }),
      );
      // One update is fanned out when the slowest worker is done with it.
      const n = Math.min(...replies.map((r) => r.durations.length));
      const durations = Array.from({ length: n }, (_, i) => Math.max(...replies.map((r) => r.durations[i])));
      return { seq, durations, clients: { ws: replies.reduce((a, r) => a + r.clients, 0), perWorker: replies.map((r) => r.clients) } };
    },
    memory: () => process.memoryUsage(),
    seq: () => ({ seq: stream.seq() }),
  },
  { onExit: kill },
);

tellParent('ready', {
  impl: count === 1 ? 'proto-single' : 'proto-split',
  audienceUrl: `http://127.0.0.1:${port}`,
  controlUrl: null,
  wsUrl: `ws://127.0.0.1:${port}/ws`,
  pid: process.pid,
  // The runner adds these to the server's RSS and CPU.
  extraPids: workers.map((w) => w.pid),
});
