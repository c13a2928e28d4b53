// `tutti import` of MusicXML copies the file beside the written score and names it in
// "notation"; --merge carries it; MIDI sets none; a different file of that name is never
// replaced without --force (docs/reference/notation.md#the-notation-field).
import { afterEach, beforeEach, expect, test } from '@jest/globals';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../local-server/src/cli.js';
import { loadScoreFile } from '../../local-server/src/score/score-file.js';

const corpus = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'corpus');
const volta = path.join(corpus, 'musicxml', 'test_repeat_volta_simple.musicxml');
let dir;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tutti-import-notation-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const cli = async (...args) => {
  const out = [];
  const err = [];
  const code = await runCli(['import', ...args], { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

test('the MusicXML goes beside the score written elsewhere, and the score loads with it', async () => {
  await mkdir(path.join(dir, 'show'));
  const out = path.join(dir, 'show', 'piece.score.json');
  expect((await cli(volta, '--out', out)).code).toBe(0);
  const written = JSON.parse(await readFile(out, 'utf8'));
  expect(written.notation).toBe('test_repeat_volta_simple.musicxml');
  expect(await readFile(path.join(dir, 'show', written.notation))).toEqual(await readFile(volta));
  const loaded = await loadScoreFile(out);
  expect(loaded.problems).toEqual([]);
  expect(loaded.score?.notation).toBe(written.notation);
});

test('next to its own input nothing is copied; --merge keeps the notation; a different file of that name needs --force', async () => {
  const input = path.join(dir, 'volta.musicxml');
  await copyFile(volta, input);
  expect((await cli(input)).code).toBe(0);
  const own = path.join(dir, 'volta.score.json');
  expect(JSON.parse(await readFile(own, 'utf8')).notation).toBe('volta.musicxml');

  const merged = path.join(dir, 'merged', 'volta.score.json');
  await mkdir(path.dirname(merged));
  expect((await cli(input, '--merge', own, '--out', merged)).code).toBe(0);
  expect(JSON.parse(await readFile(merged, 'utf8')).notation).toBe('volta.musicxml');

  await writeFile(path.join(dir, 'merged', 'volta.musicxml'), '<score-partwise/>');
  const clash = await cli(input, '--out', path.join(dir, 'merged', 'again.score.json'));
  expect(clash.code).toBe(1);
  expect(clash.err).toMatch(/volta\.musicxml exists and is a different file; pass --force/);
  expect((await cli(input, '--out', path.join(dir, 'merged', 'again.score.json'), '--force')).code).toBe(0);
  expect(await readFile(path.join(dir, 'merged', 'volta.musicxml'))).toEqual(await readFile(volta));
});

test('a MIDI file names no notation', async () => {
  const midi = path.join(dir, 'x.mid');
  await copyFile(path.join(corpus, 'midi', 'TheEntertainer.mid'), midi);
  expect((await cli(midi)).code).toBe(0);
  expect(JSON.parse(await readFile(path.join(dir, 'x.score.json'), 'utf8'))).not.toHaveProperty('notation');
});

test("the console's import (POST /api/score/import with save) writes the notation too", async () => {
  const { startShowServer } = await import('../../local-server/src/server.js');
  const token = 'console-import-notation';
  const server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token, notationCacheDir: path.join(dir, 'cache') });
  try {
    const out = path.join(dir, 'console', 'piece.score.json');
    await mkdir(path.dirname(out));
    const res = await fetch(`${server.controlUrl}/api/score/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ path: volta, out, save: true }),
    });
    expect((await res.json()).ok).toBe(true);
    expect(JSON.parse(await readFile(out, 'utf8')).notation).toBe('test_repeat_volta_simple.musicxml');
    expect(await readFile(path.join(dir, 'console', 'test_repeat_volta_simple.musicxml'))).toEqual(await readFile(volta));
  } finally {
    await server.close();
  }
});
