// A real `tutti serve` child process on loopback with its own state folder (XDG_STATE_HOME), for
// the suites that crash and restart it (crash resume, the performance record).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

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
      const child = spawn(
        process.execPath,
        [
          `${root}local-server/bin/tutti.js`,
          'serve',
          '--host',
          '127.0.0.1',
          '--port',
          '0',
          '--control-port',
          '0',
          '--token',
          token,
          ...extra,
        ],
        {
          cwd: root,
          // A developer's own TUTTI_* settings stay out of the suites' servers.
          env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TUTTI_'))), XDG_STATE_HOME: stateHome },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      running.add(child);
      let out = '';
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 15000);
      let started = false;
      const onData = (d) => {
        out += d;
        // Output after the start (log lines) only adds to `out`.
        if (started) return;
        const control = /Control API \(127\.0\.0\.1 only\):\s+(http:\/\/\S+?)\/api\/status/.exec(out)?.[1];
        if (control && /^ {2}(Stopped: |Playing\.)/m.test(out)) {
          clearTimeout(timer);
          started = true;
          const exited = new Promise((done) => child.once('exit', done));
          resolve({
            child,
            control,
            audience: /Audience on this machine:\s+(http:\S+?)\/?\s/.exec(out)?.[1] ?? null,
            record: /Performance record:\s+(\S+)/.exec(out)?.[1] ?? null,
            output: () => out,
            /** A clean stop (SIGTERM), resolved when the process has exited. */
            async stop() {
              child.kill('SIGTERM');
              await exited;
            },
          });
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
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
