// `tutti serve` in a child process with a low open-files limit (`ulimit -n` in a bash wrapper),
// so a file-descriptor exhaustion test means the same on this 20,000-file machine as on a
// venue laptop. Everything listens on 127.0.0.1; the child is ended by its own PID.
import { freePort } from '../../support/free-port.js';
import { loopbackServeFlags, spawnTutti } from '../../support/serve-process.js';

/**
 * Start `tutti serve` with `ulimit -n openFiles`; resolves once /healthz answers.
 * @param {{ openFiles: number, args?: string[] }} options
 */
export async function serveWithFileLimit({ openFiles, args = [] }) {
  const port = await freePort();
  const controlPort = await freePort();
  const run = spawnTutti(['serve', ...loopbackServeFlags({ port, controlPort, token: 'security-test-token' }), ...args], {
    shellPrefix: `ulimit -n ${Number(openFiles)}`,
  });
  const { child } = run;
  const output = run.output;
  const base = `http://127.0.0.1:${port}`;
  const end = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`tutti serve exited: ${output()}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > end) throw new Error(`tutti serve did not start: ${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    controlPort,
    base,
    output,
    async stop() {
      await run.stop('SIGTERM');
    },
  };
}
