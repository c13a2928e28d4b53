// Issue 40.21: `tutti` run from a composer's own folder by an older Node (the system's Node 20
// running a linked bin or `npx --prefix <checkout> tutti`) stopped with "tutti needs Node 22 or
// newer". It now runs itself again on the Node pinned in the checkout's node_modules, found from
// the bin's real path: arguments, output, exit code and signals pass through
// (docs/how-to/tutti-on-your-path.md). Run from a temporary folder outside the checkout.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnTutti, TUTTI_BIN } from '../../support/serve-process.js';
import { waitFor } from '../../support/clients.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const MIDI = path.join(root, 'test', 'fixtures', 'notation-writers', 'upbeat-reel.mid');

/** A Node older than 22 on this machine (the system's), or null: the PATH's, then the usual places. */
function findOldNode() {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin', '/usr/local/bin', '/bin'];
  for (const dir of new Set(dirs.filter(Boolean))) {
    const candidate = path.join(dir, 'node');
    if (!existsSync(candidate)) continue;
    try {
      const version = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8', timeout: 10_000 }).trim();
      if (Number(version.split('.')[0]) < 22) return { node: candidate, version };
    } catch {
      /* not a runnable node */
    }
  }
  return null;
}

const old = findOldNode();
// Without an old Node there is nothing to hand over from (the bin runs directly).
const maybe = old ? test : test.skip;
if (!old) console.warn('bin-on-old-node: no Node older than 22 on this machine; skipped');

let outside;
let linked;
/** What a composer's shell has: PATH without the checkout's node_modules/.bin. */
let env;

beforeAll(() => {
  outside = mkdtempSync(path.join(os.tmpdir(), 'tutti-outside-'));
  // `npm link` puts a symlink to the bin on the PATH: the bin must find its checkout through it.
  mkdirSync(path.join(outside, 'bin'));
  linked = path.join(outside, 'bin', 'tutti');
  symlinkSync(TUTTI_BIN, linked);
  const bins = `${path.sep}node_modules${path.sep}.bin`;
  env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TUTTI_') && !k.startsWith('npm_'))),
    PATH: (process.env.PATH ?? '')
      .split(path.delimiter)
      .filter((dir) => !dir.endsWith(bins))
      .join(path.delimiter),
    XDG_STATE_HOME: path.join(outside, 'state'),
  };
});

afterAll(() => rmSync(outside, { recursive: true, force: true }));

/** Run the linked bin on the old Node from the outside folder; resolves with its exit. */
async function onOldNode(args) {
  const run = spawnTutti(args, { node: /** @type {any} */ (old).node, cwd: outside, env, bin: linked });
  const { code, signal } = await run.exited;
  return { code, signal, stdout: run.stdout(), stderr: run.stderr() };
}

maybe(`--version on Node ${old?.version}, from a folder outside the checkout`, async () => {
  const r = await onOldNode(['--version']);
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  expect(r.stderr).toBe('');
  expect(r.stdout.trim()).toBe(`tutti ${version}`);
  expect(r.code).toBe(0);
});

maybe('tutti import writes the score in the composer’s folder; a failure keeps its exit code', async () => {
  const r = await onOldNode(['import', MIDI, '--out', 'reel.score.json']);
  expect(r.stderr).not.toMatch(/needs Node 22/);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/Wrote reel\.score\.json/);
  expect(JSON.parse(readFileSync(path.join(outside, 'reel.score.json'), 'utf8')).bars).toBe(9);
  // The same file again, without --force: the CLI's own refusal and exit code, through the hand-over.
  const again = await onOldNode(['import', MIDI, '--out', 'reel.score.json']);
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/reel\.score\.json/);
});

maybe(
  'a signal to the bin reaches the pinned Node running the server, and its exit comes back',
  async () => {
    const run = spawnTutti(
      ['serve', '--host', '127.0.0.1', '--port', '0', '--control-port', '0', '--token', 'old-node-test-token', '--no-record'],
      { node: /** @type {any} */ (old).node, cwd: outside, env, bin: linked },
    );
    try {
      await waitFor(
        () => {
          if (run.child.exitCode !== null) throw new Error(`tutti serve ended: ${run.output()}`);
          return /Control API/.test(run.output());
        },
        20_000,
        'tutti serve to start on the pinned Node',
      );
      const audience = /Audience on this machine:\s+(http:\S+?)\/?\s/.exec(run.output())?.[1];
      expect((await fetch(`${audience}/healthz`)).ok).toBe(true);
      run.child.kill('SIGTERM');
      const ended = await run.exited;
      expect(ended).toEqual({ code: 0, signal: null }); // a clean stop, as on the pinned Node itself
      await expect(fetch(`${audience}/healthz`)).rejects.toThrow(); // the server itself has stopped
    } finally {
      await run.stop('SIGKILL');
    }
  },
  40_000,
);
