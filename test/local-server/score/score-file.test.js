import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findJsonError, loadScoreFile } from '../../../local-server/src/score/score-file.js';

const scoresDir = fileURLToPath(new URL('../../../scores/', import.meta.url));
let dir;

function score(extra = {}) {
  return {
    format: 'tutti-score/1',
    id: 'file-test',
    title: 'File test',
    bars: 8,
    meter: [{ bar: 1, beats: 4, unit: 4 }],
    tempo: [{ at: { bar: 1 }, bpm: 90 }],
    ...extra,
  };
}

async function write(name, content) {
  const path = join(dir, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tutti-score-file-'));
  await mkdir(join(dir, 'media'));
  await writeFile(join(dir, 'media', 'bell.wav'), Buffer.alloc(100));
  await mkdir(join(dir, 'media', 'folder.wav'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadScoreFile', () => {
  test.each(['demo', 'tidal-lines', 'union-rose-load'])('loads the %s sample', async (name) => {
    const result = await loadScoreFile(join(scoresDir, `${name}.score.json`));
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.dir).toBe(scoresDir.replace(/\/$/, ''));
    expect(result.score.id).toBe(name);
  });

  test('fills in asset sizes from the files; a relative path resolves from the working directory', async () => {
    const path = await write('sized.score.json', score({ assets: [{ id: 'bell', kind: 'audio', src: 'media/bell.wav' }] }));
    const result = await loadScoreFile(join(dir, '.', 'sized.score.json'));
    expect(result.ok).toBe(true);
    expect(result.file).toBe(path);
    expect(result.dir).toBe(dir);
    expect(result.score.assets[0].bytes).toBe(100);
  });

  test('a missing file', async () => {
    const path = join(dir, 'nope.score.json');
    const result = await loadScoreFile(path);
    expect(result).toEqual({ ok: false, problems: [{ path: '(file)', message: `${path} does not exist` }], dir, file: path });
  });

  test('a folder instead of a file, and no path at all', async () => {
    expect((await loadScoreFile(dir)).problems).toEqual([
      { path: '(file)', message: `${dir} is a folder; give the path of a .score.json file` },
    ]);
    expect((await loadScoreFile('')).problems).toEqual([{ path: '(file)', message: 'no score file given' }]);
    expect((await loadScoreFile(/** @type {any} */ (undefined))).ok).toBe(false);
  });

  test('bad JSON: line and column of the mistake', async () => {
    const result = await loadScoreFile(join(scoresDir, 'broken', 'bad-syntax.score.json'));
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      { path: '(file)', message: "invalid JSON at line 5, column 3: Expected ',' or '}' after property value" },
    ]);
  });

  test.each([
    ['{\n  "a": tru\n}', 'invalid JSON at line 2, column 8: '],
    ['{\n  "a": 1,\n}', 'invalid JSON at line 3, column 1: '],
    ['{ "a": [1, 2 }', 'invalid JSON at line 1, column 14: '],
    [' \n', 'the file is empty; a score is a JSON object { "format": "tutti-score/1", ... }'],
    ['\uFEFF{"format": 1}', null],
  ])('bad JSON %j', async (text, expected) => {
    const result = await loadScoreFile(await write('bad.score.json', text));
    expect(result.ok).toBe(false);
    if (expected === null) {
      // A BOM is skipped: this parses, and fails validation instead.
      expect(result.problems[0].path).toBe('format');
    } else {
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0].path).toBe('(file)');
      expect(result.problems[0].message.startsWith(expected)).toBe(true);
    }
  });

  test('every problem at once: five mistakes, five problems', async () => {
    const result = await loadScoreFile(join(scoresDir, 'broken', 'five-problems.score.json'));
    expect(result.problems.map((p) => p.path)).toEqual(['(root)', 'meter[1].unit', 'tempo[1]', 'cues[0].at.bar', 'cues[2]']);
  });

  test('validation problems come back as they are', async () => {
    const result = await loadScoreFile(join(scoresDir, 'broken', 'bad-bar.score.json'));
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => p.path)).toEqual(['cues[1].at.bar', 'cues[2].at.beat', 'cues[3].at.bar']);
  });

  test('a missing asset file', async () => {
    const path = join(scoresDir, 'broken', 'missing-asset-file.score.json');
    const result = await loadScoreFile(path);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      {
        path: 'assets[0].src',
        message: `file media/nowhere/gone.wav not found next to the score (looked for ${join(scoresDir, 'broken', 'media', 'nowhere', 'gone.wav')})`,
      },
    ]);
  });

  test('asset checks: a folder, a wrong size, and unsafe paths that are never looked up', async () => {
    const path = await write(
      'assets.score.json',
      score({
        assets: [
          { id: 'ok', kind: 'audio', src: 'media/bell.wav', bytes: 100 },
          { id: 'dir', kind: 'audio', src: 'media/folder.wav' },
          { id: 'size', kind: 'audio', src: 'media/bell.wav', bytes: 99 },
          { id: 'up', kind: 'audio', src: '../bell.wav' },
          { id: 'gone', kind: 'audio', src: 'media/gone.wav' },
        ],
        cues: [{ at: { bar: 9 }, audio: { asset: 'ok' } }],
      }),
    );
    const result = await loadScoreFile(path);
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      `assets[1].src: media/folder.wav is not a file (looked at ${join(dir, 'media', 'folder.wav')})`,
      'assets[2].bytes: the score says 99 bytes but media/bell.wav has 100; update "bytes" or leave it out',
      'assets[3].src: "../bell.wav" is not a usable file path: it must not go up a folder with ".."',
      `assets[4].src: file media/gone.wav not found next to the score (looked for ${join(dir, 'media', 'gone.wav')})`,
      'cues[0].at.bar: bar 9 is past the last bar (8)',
    ]);
  });

  test('an oversized file is refused before reading', async () => {
    const path = await write('huge.score.json', Buffer.alloc(16 * 1024 * 1024 + 1, 32).toString());
    const result = await loadScoreFile(path);
    expect(result.problems).toEqual([
      { path: '(file)', message: `${path} is 16.0 MB; a score file may be at most 16 MB (media go in separate files)` },
    ]);
  });
});

describe('findJsonError', () => {
  test.each([
    ['{"a":1}', -1],
    [' [1, -2.5e3, "x\\u00e9", true, false, null, {}] ', -1],
    ['{"a":1,}', 7],
    ['[01]', 2],
    ['"\\x"', 2],
    ['"abc', 4],
    ['[1 2]', 3],
    ['{"a" 1}', 5],
    ['tru', 0],
    ['{} x', 3],
    ['['.repeat(5000), 4097],
  ])('%j → %d', (text, offset) => {
    expect(findJsonError(text)).toBe(offset);
  });

  test('agrees with JSON.parse on whether text is valid', () => {
    for (const text of ['{"a":[1,{"b":null}]}', '{"a":[1,{"b":nul}]}', '"\\ud800"', '1e', '-', '0.', '{"a":"\t"}']) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(findJsonError(text) === -1).toBe(valid);
    }
  });
});

test('a device or pipe is refused instead of read forever (found by fuzzing the control API)', async () => {
  const result = await loadScoreFile('/dev/zero');
  expect(result.ok).toBe(false);
  expect(result.problems[0].message).toMatch(/not a regular file/);
});
