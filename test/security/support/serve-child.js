// `tutti serve` in a child process with a low open-files limit (`ulimit -n` in a bash wrapper),
// so a file-descriptor exhaustion test means the same on this 20,000-file machine as on a
// venue laptop. Everything listens on 127.0.0.1; the child is ended by its own PID.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = /** @type {net.AddressInfo} */ (s.address());
  await new Promise((r) => s.close(r));
  return port;
}

/**
 * Start `tutti serve` with `ulimit -n openFiles`; resolves once /healthz answers.
 * @param {{ openFiles: number, args?: string[] }} options
 */
export async function serveWithFileLimit({ openFiles, args = [] }) {
  const port = await freePort();
  const controlPort = await freePort();
  const command = `ulimit -n ${Number(openFiles)} && exec node_modules/.bin/node local-server/bin/tutti.js serve "$@"`;
  const child = spawn(
    'bash',
    [
      '-c',
      command,
      'tutti',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--control-port',
      String(controlPort),
      '--token',
      'security-test-token',
      '--autoplay',
      ...args,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const base = `http://127.0.0.1:${port}`;
  const end = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`tutti serve exited: ${output}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > end) throw new Error(`tutti serve did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    controlPort,
    base,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
