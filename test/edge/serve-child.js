// A real `tutti serve` in a child process, publishing to an edge: what a venue runs. Tests can
// SIGKILL it (a crash, a pulled plug) or run two of them with the same token.

import { waitFor } from './helpers.js';
import { freePort } from '../support/free-port.js';
import { loopbackServeFlags, spawnTutti } from '../support/serve-process.js';

/**
 * @param {{ url: string, token: string }} edge
 * @param {{ args?: string[] }} [options]
 */
export async function startServeChild(edge, { args = [] } = {}) {
  const [port, controlPort] = [await freePort(), await freePort()];
  const token = `venue-control-${port}`; // the CLI wants at least 16 characters
  const run = spawnTutti([
    'serve',
    ...loopbackServeFlags({ port, controlPort, token }),
    '--no-resume',
    '--no-log-file',
    '--edge',
    edge.url,
    '--edge-token',
    edge.token,
    ...args,
  ]);
  const { child } = run;
  const control = `http://127.0.0.1:${controlPort}`;
  /**
   * @param {string} path
   * @param {'GET' | 'POST'} [method]
   */
  const api = async (path, method = 'GET') => {
    const res = await fetch(`${control}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
  await waitFor(
    async () => (await fetch(`${control}/api/status`, { headers: { authorization: `Bearer ${token}` } }).catch(() => null))?.ok === true,
    { timeoutMs: 20_000, what: 'tutti serve to start' },
  );
  return {
    child,
    pid: child.pid,
    api,
    status: async () => (await api('/api/status')).body,
    output: run.output,
    /** @param {NodeJS.Signals} signal */
    async kill(signal = 'SIGTERM') {
      await run.stop(signal);
    },
  };
}
