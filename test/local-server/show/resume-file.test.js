// The crash-resume file (local-server/src/show/resume-file.js, docs/how-to/venue-server-unattended.md#crash-resume): an
// absolute score path, durable writes (fsync of the file and the folder around the rename), a
// `.corrupt` copy and a warning for a file that cannot be used, and every resumed value
// range-checked. Real files in a temp dir and real show servers.
import { mkdtemp, readFile, writeFile, rm, readdir } from 'node:fs/promises';
import * as fsPromises from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startShow } from '../../support/show.js';
import { createLog } from '../../../local-server/src/logs/log.js';
import { writeFileDurably } from '../../../local-server/src/show/resume-file.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const demo = path.join(root, 'scores/demo.score.json');
let dir;
const servers = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tutti-resume-file-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function start(options) {
  const log = createLog();
  const server = await startShow({ autoplay: false, log, ...options });
  servers.push(server);
  return {
    server,
    warnings: () =>
      log
        .recent()
        .filter((e) => e.level === 'warn')
        .map((e) => e.msg),
  };
}

test('the score path is stored absolute, even when given relative', async () => {
  const file = path.join(dir, 'show.json');
  const { server } = await start({ scorePath: path.relative(process.cwd(), demo), stateFile: file });
  server.show.engine.seek(3);
  await server.flushState();
  const saved = JSON.parse(await readFile(file, 'utf8'));
  expect(saved.scorePath).toBe(demo);
});

test('a write is durable: temp file synced, renamed, then the folder synced', async () => {
  const calls = [];
  const recording = {
    mkdir: (...a) => fsPromises.mkdir(...a),
    lstat: (...a) => fsPromises.lstat(...a),
    unlink: (...a) => fsPromises.unlink(...a),
    rename: async (from, to) => {
      calls.push(`rename ${path.basename(from)} → ${path.basename(to)}`);
      return fsPromises.rename(from, to);
    },
    open: async (p, ...rest) => {
      const handle = await fsPromises.open(p, ...rest);
      const name = p === dir ? 'folder' : path.basename(p);
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        calls.push(`sync ${name}`);
        return sync();
      };
      return handle;
    },
  };
  const file = path.join(dir, 'show.json');
  await writeFileDurably(file, '{"a":1}', /** @type {any} */ (recording));
  // The temp file has a fresh random name beside the target (local-server/src/files/safe-write.js).
  const tmp = calls[0].replace(/^sync /, '');
  expect(tmp).toMatch(/^\.show\.json\.[0-9a-f]{12}\.tmp$/);
  expect(calls).toEqual([`sync ${tmp}`, `rename ${tmp} → show.json`, 'sync folder']);
  expect(await readFile(file, 'utf8')).toBe('{"a":1}');
  expect(await readdir(dir)).toEqual(['show.json']);
});

test.each([
  ['not JSON', '{"scorePath": "/x", "point": {', /not JSON/],
  ['a relative score path', JSON.stringify({ scorePath: 'scores/demo.score.json', point: {} }), /scorePath is not an absolute path/],
  ['no point', JSON.stringify({ scorePath: '/tmp/x.json' }), /point is not an object/],
])('a corrupt file (%s) is kept as .corrupt and reported, not silently overwritten', async (_what, text, reason) => {
  const file = path.join(dir, 'show.json');
  await writeFile(file, text);
  const { server, warnings } = await start({ scorePath: demo, stateFile: file });
  expect(warnings().join('\n')).toMatch(reason);
  expect(warnings().join('\n')).toMatch(/kept as .*show\.json\.corrupt/);
  expect(await readFile(`${file}.corrupt`, 'utf8')).toBe(text);
  expect(server.status().position.bar).toBe(1);
  await server.flushState();
  expect(JSON.parse(await readFile(file, 'utf8')).scorePath).toBe(demo); // a fresh, valid file
});

/** A resume point as a running engine saves it, with one field replaced. */
function savedPoint(patch) {
  return {
    scorePath: demo,
    savedAt: Date.now(),
    point: { scoreId: 'demo', transport: 'paused', index: 12, shown: 11, anchor: null, tempoFactor: 1, ...patch },
  };
}

test('a sound point resumes (the baseline for the range checks below)', async () => {
  const file = path.join(dir, 'show.json');
  await writeFile(file, JSON.stringify(savedPoint({})));
  const { server, warnings } = await start({ scorePath: demo, stateFile: file });
  expect(warnings()).toEqual([]);
  expect(server.status().transport).toBe('paused');
  expect(server.status().position.index).toBe(11);
});

test.each([
  [
    'tempoFactor 1e-300 (a 1 ms timer loop)',
    { transport: 'playing', index: null, shown: null, anchor: { index: 4, time: Date.now() - 1000 }, tempoFactor: 1e-300 },
    /tempoFactor 1e-300 is outside the tempo range/,
  ],
  ['tempoFactor 50', { tempoFactor: 50 }, /tempoFactor 50 is outside/],
  ['tempoFactor as a string', { tempoFactor: '1' }, /tempoFactor "1" is outside/],
  ['an index past the end', { index: 10_000_000 }, /index 10000000 is not a beat of this score/],
  ['a negative shown beat', { shown: -3 }, /shown -3 is not a beat/],
  ['a fractional index', { index: 2.5 }, /index 2.5 is not a beat/],
  ['an unknown transport', { transport: 'rewinding' }, /transport "rewinding" is not/],
  [
    'an anchor far in the future',
    { transport: 'playing', index: null, shown: null, anchor: { index: 4, time: Date.now() + 86_400_000 } },
    /anchor.time .* is not a time up to now/,
  ],
  [
    'an anchor beat past the end',
    { transport: 'playing', index: null, shown: null, anchor: { index: 99_999, time: Date.now() } },
    /anchor.index 99999 is not a beat/,
  ],
  ['another score', { scoreId: 'tidal-lines' }, /saved for another score/],
])('%s: not resumed, a warning, the show starts at the top', async (_what, patch, reason) => {
  const file = path.join(dir, 'show.json');
  await writeFile(file, JSON.stringify(savedPoint(patch)));
  const { server, warnings } = await start({ scorePath: demo, stateFile: file });
  expect(warnings().join('\n')).toMatch(reason);
  expect(server.status().transport).toBe('stopped');
  expect(server.status().position.bar).toBe(1);
});

test('a clean close deletes the file: the next start begins at the top', async () => {
  const file = path.join(dir, 'show.json');
  const { server } = await start({ scorePath: demo, stateFile: file });
  server.show.engine.seek(5);
  await server.flushState();
  expect(JSON.parse(await readFile(file, 'utf8')).point.index).toBeGreaterThan(0);
  await server.close();
  await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/);
});

test('the interrupted score is gone: the server starts with the demo and says why', async () => {
  const file = path.join(dir, 'show.json');
  await writeFile(file, JSON.stringify({ ...savedPoint({}), scorePath: path.join(dir, 'deleted.score.json') }));
  const { server, warnings } = await start({ stateFile: file });
  expect(warnings().join('\n')).toMatch(/deleted\.score\.json does not load any more/);
  expect(server.status().score.id).toBe('demo');
});
