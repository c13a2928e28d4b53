// Attack (issue 40 item 8): a score folder or state folder (from a zip, a tar, a clone) holds
// `piece.score.json -> /anywhere/file`. Before, Tutti created or overwrote the linked file. Now
// every path the server writes refuses a link with a clear error, and the file it points to is
// untouched (local-server/src/files/safe-write.js, docs/reference/score-editing-api.md#safe-writes).
// Real files, real links, real servers on real sockets.

import { lstat, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../local-server/src/cli.js';
import { writeNewScore } from '../../local-server/src/score/new-score.js';
import { openRotatingFile } from '../../local-server/src/logs/log-file.js';
import { openRecordWriter } from '../../local-server/src/record/record-writer.js';
import { createLog } from '../../local-server/src/logs/log.js';
import { startShow } from '../support/show.js';
import { createSettingsStore } from '../../app/main/settings-store.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MUSICXML = path.join(root, 'test/fixtures/corpus/musicxml/test_metronome_mark_with_pickup_measure.musicxml');
const SECRET = 'the laptop owner\u2019s file\n';

let dir;
let outside;
let secret;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tutti-symlink-writes-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'tutti-symlink-outside-'));
  secret = path.join(outside, 'secret.json');
  await writeFile(secret, SECRET);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

const untouched = async () => expect(await readFile(secret, 'utf8')).toBe(SECRET);
const cli = async (argv) => {
  const said = [];
  const code = await runCli(argv, { out: (s) => said.push(s), err: (s) => said.push(s), env: {} });
  return { code, said: said.join('\n') };
};

test('tutti import (with and without --force) refuses a linked score file', async () => {
  const input = path.join(dir, 'piece.musicxml');
  await writeFile(input, await readFile(MUSICXML));
  await symlink(secret, path.join(dir, 'piece.score.json'));
  for (const argv of [
    ['import', input],
    ['import', input, '--force'],
  ]) {
    const { code, said } = await cli(argv);
    expect(code).not.toBe(0);
    expect(said).toMatch(/piece\.score\.json is a symbolic link; Tutti never writes through a link.*nothing was written/);
    await untouched();
  }
  // A dangling link would have been created through.
  await rm(path.join(dir, 'piece.score.json'));
  await symlink(path.join(outside, 'created.json'), path.join(dir, 'piece.score.json'));
  expect((await cli(['import', input])).said).toMatch(/is a symbolic link/);
  await expect(lstat(path.join(outside, 'created.json'))).rejects.toMatchObject({ code: 'ENOENT' });
});

test('tutti import refuses a link where the copy of the MusicXML goes beside the score (--force too)', async () => {
  const input = path.join(dir, 'source', 'piece.musicxml');
  await mkdir(path.dirname(input));
  await writeFile(input, await readFile(MUSICXML));
  const out = path.join(dir, 'score', 'piece.score.json');
  await mkdir(path.dirname(out));
  // The notation copy is named after the input file; a link of that name points outside.
  await symlink(secret, path.join(dir, 'score', 'piece.musicxml'));
  for (const argv of [
    ['import', input, '--out', out],
    ['import', input, '--out', out, '--force'],
  ]) {
    const { code, said } = await cli(argv);
    expect(code).not.toBe(0);
    expect(said).toMatch(/piece\.musicxml is a symbolic link; Tutti never writes through a link.*nothing was written/);
    await untouched();
  }
});

test('the console import with save refuses a linked score file: 400 IMPORT_FAILED with the reason', async () => {
  const input = path.join(dir, 'piece.musicxml');
  await writeFile(input, await readFile(MUSICXML));
  await symlink(secret, path.join(dir, 'piece.score.json'));
  const server = await startShow({ autoplay: false });
  try {
    const res = await fetch(`${server.controlUrl}/api/score/import`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-token', 'content-type': 'application/json' },
      body: JSON.stringify({ path: input, save: true, force: true }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'IMPORT_FAILED', message: expect.stringMatching(/is a symbolic link/) });
  } finally {
    await server.close();
  }
  await untouched();
});

test('tutti new refuses a linked media folder and writes nothing outside', async () => {
  await mkdir(path.join(dir, 'media'));
  await symlink(outside, path.join(dir, 'media', 'first-light'));
  await expect(writeNewScore('first-light', { cwd: dir })).rejects.toThrow(/first-light is a symbolic link/);
  expect((await readdir(outside)).sort()).toEqual(['secret.json']);
});

test('the resume file: a linked state file is refused with a warning, the linked file never created', async () => {
  const target = path.join(outside, 'resume.json');
  const stateFile = path.join(dir, 'show.json');
  await symlink(target, stateFile);
  const log = createLog();
  const server = await startShow({ autoplay: false, stateFile, log });
  try {
    await server.flushState();
    const warnings = log
      .recent()
      .filter((e) => e.level === 'warn')
      .map((e) => e.msg);
    expect(warnings.join('\n')).toMatch(/cannot save the show position to .*show\.json: .*is a symbolic link/);
  } finally {
    await server.close();
  }
  await expect(lstat(target)).rejects.toMatchObject({ code: 'ENOENT' });
});

test('the log file: a linked tutti.log is refused, the linked file untouched', async () => {
  const file = path.join(dir, 'tutti.log');
  await symlink(secret, file);
  expect(() => openRotatingFile({ file })).toThrow(/tutti\.log is a symbolic link/);
  await untouched();
});

test('records: a linked chunk or summary in a record folder is refused, the linked file untouched', async () => {
  const id = '20261128-050000-abcd';
  await mkdir(path.join(dir, id));
  await symlink(secret, path.join(dir, id, '0001.jsonl'));
  const onError = () => {};
  await expect(openRecordWriter({ root: dir, id, summary: {}, onError })).rejects.toThrow(/0001\.jsonl is a symbolic link/);
  await rm(path.join(dir, id, '0001.jsonl'));
  await symlink(secret, path.join(dir, id, 'summary.json'));
  await expect(openRecordWriter({ root: dir, id, summary: {}, onError })).rejects.toThrow(/summary\.json is a symbolic link/);
  await untouched();
});

test('tutti report refuses a linked --out file', async () => {
  const recordDir = path.join(dir, 'records');
  const server = await startShow({ autoplay: false, recordDir });
  await server.close();
  const out = path.join(dir, 'report.html');
  await symlink(secret, out);
  const { code, said } = await cli(['report', '--record-dir', recordDir, '--out', out]);
  expect(code).toBe(1);
  expect(said).toMatch(/cannot write the report: .*report\.html is a symbolic link/);
  await untouched();
});

test('the desktop app: a linked settings.json is not written through (a warning, the linked file untouched)', async () => {
  await symlink(secret, path.join(dir, 'settings.json'));
  const warnings = [];
  const store = createSettingsStore({ dir, warn: (m) => warnings.push(m) });
  store.save({ ...store.get(), recentScores: ['/x'] });
  expect(warnings.join('\n')).toMatch(/cannot save settings to .*settings\.json: .*is a symbolic link/);
  await untouched();
});
