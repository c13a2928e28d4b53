// The OSC send thread (osc-send-core.js in a worker): jobs in, reports out. It exits once osc.js
// closes it (its sockets closed, nothing keeps its event loop alive).
import { parentPort } from 'node:worker_threads';
import { createSendCore } from './osc-send-core.js';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const core = createSendCore((report) => port.postMessage(report));
port.on('message', (job) => {
  core.handle(job);
  if (job.type === 'close') port.close();
});
port.postMessage({ type: 'ready' });
