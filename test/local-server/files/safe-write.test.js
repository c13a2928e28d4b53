// Safe writes (local-server/src/files/safe-write.js, docs/reference/score-editing-api.md#safe-writes):
// real files and real symbolic links in a temp folder. A link to a file outside the folder is
// never written through, a dangling link is never created through, and a replacement is atomic.

import { lstat, mkdir, mkdtemp, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { closeSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  SymlinkRefusedError,
  createFile,
  openForAppendSync,
  replaceFile,
  replaceFileSync,
} from '../../../local-server/src/files/safe-write.js';

let dir;
let outside;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tutti-safe-write-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'tutti-safe-write-outside-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

/** A file outside the folder and a link to it inside: the attacker's setup. */
async function plantLink(name) {
  const secret = path.join(outside, 'secret.txt');
  await writeFile(secret, 'the owner\u2019s file\n');
  const link = path.join(dir, name);
  await symlink(secret, link);
  return { secret, link };
}

test('replaceFile writes a new file and replaces an old one, leaving no temp file', async () => {
  const file = path.join(dir, 'piece.score.json');
  await replaceFile(file, 'one\n');
  await replaceFile(file, 'two\n');
  expect(await readFile(file, 'utf8')).toBe('two\n');
  expect(await readdir(dir)).toEqual(['piece.score.json']);
});

test('replaceFile keeps the previous bytes as the backup', async () => {
  const file = path.join(dir, 'piece.score.json');
  await writeFile(file, 'before\n');
  await replaceFile(file, 'after\n', { backup: `${file}.bak` });
  expect(await readFile(file, 'utf8')).toBe('after\n');
  expect(await readFile(`${file}.bak`, 'utf8')).toBe('before\n');
  await replaceFile(file, 'third\n', { backup: `${file}.bak` });
  expect(await readFile(`${file}.bak`, 'utf8')).toBe('after\n');
});

test('replaceFile refuses a target that links outside, and the linked file is untouched', async () => {
  const { secret, link } = await plantLink('piece.score.json');
  await expect(replaceFile(link, 'overwritten')).rejects.toThrow(SymlinkRefusedError);
  await expect(replaceFile(link, 'overwritten')).rejects.toThrow(/piece\.score\.json is a symbolic link/);
  expect(await readFile(secret, 'utf8')).toBe('the owner\u2019s file\n');
  expect((await lstat(link)).isSymbolicLink()).toBe(true);
  expect(await readlink(link)).toBe(secret);
});

test('replaceFile refuses a linked backup, before anything is written', async () => {
  const file = path.join(dir, 'piece.score.json');
  await writeFile(file, 'before\n');
  const { secret } = await plantLink('piece.score.json.bak');
  await expect(replaceFile(file, 'after\n', { backup: `${file}.bak` })).rejects.toThrow(SymlinkRefusedError);
  expect(await readFile(secret, 'utf8')).toBe('the owner\u2019s file\n');
  expect(await readFile(file, 'utf8')).toBe('before\n');
});

test('a dangling link is not created through, by replaceFile nor by createFile', async () => {
  const target = path.join(outside, 'would-be-created.txt');
  const link = path.join(dir, 'new.score.json');
  await symlink(target, link);
  await expect(replaceFile(link, 'x')).rejects.toThrow(SymlinkRefusedError);
  await expect(createFile(link, 'x')).rejects.toThrow(SymlinkRefusedError);
  await expect(lstat(target)).rejects.toMatchObject({ code: 'ENOENT' });
});

test('createFile never replaces an existing file', async () => {
  const file = path.join(dir, 'a.txt');
  await createFile(file, 'first');
  await expect(createFile(file, 'second')).rejects.toMatchObject({ code: 'EEXIST' });
  expect(await readFile(file, 'utf8')).toBe('first');
});

test('with a root, a linked folder between the root and the file is refused', async () => {
  await symlink(outside, path.join(dir, 'media'));
  const file = path.join(dir, 'media', 'bell.wav');
  await expect(replaceFile(file, 'x', { root: dir })).rejects.toThrow(/media is a symbolic link/);
  await expect(createFile(file, 'x', { root: dir })).rejects.toThrow(SymlinkRefusedError);
  expect(await readdir(outside)).toEqual([]);
  await mkdir(path.join(dir, 'real'));
  await replaceFile(path.join(dir, 'real', 'ok.wav'), 'ok', { root: dir });
  expect(await readFile(path.join(dir, 'real', 'ok.wav'), 'utf8')).toBe('ok');
});

test('openForAppendSync appends to a plain file and refuses a link (live or dangling)', async () => {
  const file = path.join(dir, 'tutti.log');
  for (const line of ['a\n', 'b\n']) {
    const fd = openForAppendSync(file);
    writeSync(fd, line);
    closeSync(fd);
  }
  expect(await readFile(file, 'utf8')).toBe('a\nb\n');
  const { secret, link } = await plantLink('other.log');
  expect(() => openForAppendSync(link)).toThrow(SymlinkRefusedError);
  expect(await readFile(secret, 'utf8')).toBe('the owner\u2019s file\n');
  await symlink(path.join(outside, 'nothing.log'), path.join(dir, 'dangling.log'));
  expect(() => openForAppendSync(path.join(dir, 'dangling.log'))).toThrow(SymlinkRefusedError);
  await expect(lstat(path.join(outside, 'nothing.log'))).rejects.toMatchObject({ code: 'ENOENT' });
});

test('replaceFileSync replaces atomically and refuses a link, live or dangling', async () => {
  const file = path.join(dir, 'settings.json');
  replaceFileSync(file, 'one');
  replaceFileSync(file, 'two', { mode: 0o600 });
  expect(await readFile(file, 'utf8')).toBe('two');
  expect(await readdir(dir)).toEqual(['settings.json']);
  const { secret, link } = await plantLink('linked.json');
  expect(() => replaceFileSync(link, 'x')).toThrow(SymlinkRefusedError);
  expect(await readFile(secret, 'utf8')).toBe('the owner\u2019s file\n');
  await symlink(path.join(outside, 'made.json'), path.join(dir, 'dangling.json'));
  expect(() => replaceFileSync(path.join(dir, 'dangling.json'), 'x')).toThrow(SymlinkRefusedError);
  await expect(lstat(path.join(outside, 'made.json'))).rejects.toMatchObject({ code: 'ENOENT' });
});
