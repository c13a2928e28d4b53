// A real `tutti` child process (the bin, as a venue runs it): spawnTutti starts it with its output
// collected and a stop by its own PID; serveProcesses runs `tutti serve` on loopback with its own
// state folder (XDG_STATE_HOME), for the suites that crash and restart it (crash resume, the
// performance record). Every suite that spawns the bin goes through spawnTutti.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The bin `npx tutti` runs. */
export const TUTTI_BIN = `${root}local-server/bin/tutti.js`;

/**
 * @typedef {object} TuttiChild
 * @property {import('node:child_process').ChildProcess} child
 * @property {number | undefined} pid
 * @property {() => string} output stdout and stderr so far, interleaved as they came
 * @property {() => string} stdout stdout so far
 * @property {() => string} stderr stderr so far
 * @property {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} exited
 * @property {(signal?: NodeJS.Signals) => Promise<{ code: number | null, signal: NodeJS.Signals | null }>} stop signal it (SIGTERM: a clean stop) unless it has ended; resolves when it has
 */

/**
 * The flags of a `tutti serve` on 127.0.0.1 with the given ports and token, playing at once.
 * @param {{ port: number, controlPort: number, token: string }} listen
 * @returns {string[]}
 */
export function loopbackServeFlags({ port, controlPort, token }) {
  return ['--host', '127.0.0.1', '--port', String(port), '--control-port', String(controlPort), '--token', token, '--autoplay'];
}

/**
 * Start the `tutti` bin with `args`.
 * @param {string[]} args e.g. ['serve', '--host', '127.0.0.1', …]
 * @param {{ node?: string, cwd?: string, env?: NodeJS.ProcessEnv, shellPrefix?: string, bin?: string }} [options]
 *   node: the Node that runs the bin (default: this one, the pinned Node); cwd: default the checkout;
 *   bin: the bin's path (default TUTTI_BIN; a symlink to it, as `npm link` makes);
 *   shellPrefix: a bash command run first in the same process, which then execs the bin (`ulimit -n 64`)
 * @returns {TuttiChild}
 */
export function spawnTutti(args, { node = process.execPath, cwd = root, env = process.env, shellPrefix, bin = TUTTI_BIN } = {}) {
  const options = { cwd, env, stdio: /** @type {const} */ (['ignore', 'pipe', 'pipe']) };
  const child = shellPrefix
    ? spawn('bash', ['-c', `${shellPrefix} && exec "$0" "$@"`, node, bin, ...args], options)
    : spawn(node, [bin, ...args], options);
  const text = { all: '', stdout: '', stderr: '' };
  child.stdout?.on('data', (d) => {
    text.all += d;
    text.stdout += d;
  });
  child.stderr?.on('data', (d) => {
    text.all += d;
    text.stderr += d;
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    pid: child.pid,
    output: () => text.all,
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * @param {{ token: string, prefix: string }} options prefix: the state folder's name in the temp dir
 * @returns {{ stateHome: string, serve: (extra?: string[]) => Promise<{ child: import('node:child_process').ChildProcess, control: string, audience: string | null, record: string | null, output: () => string, stop: () => Promise<void> }>, cleanUp: () => void }}
 */
export function serveProcesses({ token, prefix }) {
  const stateHome = mkdtempSync(path.join(os.tmpdir(), prefix));
  const running = new Set();

  /** Start `tutti serve`; resolves once it printed its start-up lines (the last says stopped or playing). */
  function serve(extra = []) {
    return new Promise((resolve, reject) => {
      const run = spawnTutti(['serve', '--host', '127.0.0.1', '--port', '0', '--control-port', '0', '--token', token, ...extra], {
        // A developer's own TUTTI_* settings stay out of the suites' servers.
        env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TUTTI_'))), XDG_STATE_HOME: stateHome },
      });
      const { child } = run;
      running.add(child);
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${run.output()}`)), 15000);
      let started = false;
      const onData = () => {
        const out = run.output();
        // Output after the start (log lines) only adds to the output.
        if (started) return;
        const control = /Control API \(127\.0\.0\.1 only\):\s+(http:\/\/\S+?)\/api\/status/.exec(out)?.[1];
        if (control && /^ {2}(Stopped: |Playing\.)/m.test(out)) {
          clearTimeout(timer);
          started = true;
          resolve({
            child,
            control,
            audience: /Audience on this machine:\s+(http:\S+?)\/?\s/.exec(out)?.[1] ?? null,
            record: /Performance record:\s+(\S+)/.exec(out)?.[1] ?? null,
            output: run.output,
            /** A clean stop (SIGTERM), resolved when the process has exited. */
            async stop() {
              await run.stop('SIGTERM');
            },
          });
        }
      };
      // After spawnTutti's own listeners, so the output already holds this chunk.
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', () => running.delete(child));
    });
  }

  return {
    stateHome,
    serve,
    cleanUp() {
      for (const child of running) child.kill('SIGKILL');
      rmSync(stateHome, { recursive: true, force: true });
    },
  };
}
