// A JACK server of the suite's own for the audio programs that need one (scsynth, Csound): the
// dummy driver (no sound card here) at 48 kHz in 64-sample blocks, as a live set-up would run,
// under a unique server name so runs never meet. Clients reach it through `env`.

import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

/**
 * Start `jackd --no-realtime -d dummy` named after this process and `tag`.
 * @param {string} tag unique within this process (a port number)
 * @param {NodeJS.ProcessEnv} baseEnv the clients' environment, to which JACK's variables are added
 * @returns {Promise<{ env: NodeJS.ProcessEnv, stop: () => Promise<void> }>} env for JACK clients
 */
export async function startJack(tag, baseEnv) {
  const server = `tutti-${process.pid}-${tag}`;
  const env = { ...baseEnv, JACK_DEFAULT_SERVER: server, JACK_NO_START_SERVER: '1' };
  const jack = spawn('jackd', ['--no-realtime', '--name', server, '-d', 'dummy', '-r', '48000', '-p', '64'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const exited = new Promise((resolve) => jack.once('exit', resolve));
  const stop = async () => {
    if (jack.exitCode === null) jack.kill('SIGTERM');
    await exited;
  };
  let output = '';
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`jackd did not start: ${output.trim() || '(no output)'}`)), 10_000);
      const onData = (chunk) => {
        output += chunk;
        if (/JACK server starting/.test(output)) {
          clearTimeout(timer);
          // The dummy driver opens right after it says so.
          setTimeout(resolve, 300);
        }
      };
      jack.stdout.on('data', onData);
      jack.stderr.on('data', onData);
      jack.once('exit', () => reject(new Error(`jackd exited: ${output.trim() || '(no output)'}`)));
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { env, stop };
}

/**
 * Run a tool on a JACK server of its own: JACK starts first (HOME in `dir`), the tool's stop
 * also stops JACK, and a tool that fails to start takes JACK down with it.
 * @template {{ stop: () => Promise<void> }} T
 * @param {string} tag unique within this process (the tool's port)
 * @param {string} dir the tool's temporary directory (its stop removes it)
 * @param {(env: NodeJS.ProcessEnv) => Promise<T>} start starts the tool as a JACK client
 * @returns {Promise<T>}
 */
export async function onOwnJack(tag, dir, start) {
  const jack = await startJack(tag, { ...process.env, HOME: dir }).catch((err) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  let tool;
  try {
    tool = await start(jack.env);
  } catch (err) {
    await jack.stop();
    throw err;
  }
  const stopTool = tool.stop;
  return Object.assign(tool, {
    async stop() {
      await stopTool();
      await jack.stop();
    },
  });
}
