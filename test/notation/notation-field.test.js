// The score's "notation" field (docs/reference/notation.md#the-notation-field): validated like
// every other field (path + sentence), inside the score's folder, and present when loaded.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateScore } from '#core/score/validate.js';
import { loadScoreFile } from '../../local-server/src/score/score-file.js';

const score = (extra = {}) => ({
  format: 'tutti-score/1',
  id: 'notation-field',
  title: 'Notation field',
  bars: 4,
  meter: [{ bar: 1, beats: 4, unit: 4 }],
  tempo: [{ at: { bar: 1 }, bpm: 90 }],
  ...extra,
});

describe('validateScore: notation', () => {
  test('a MusicXML or .mxl file beside the score is kept in the normalized score', () => {
    for (const notation of ['piece.musicxml', 'scores/Piece.XML', 'piece.mxl']) {
      const result = validateScore(score({ notation }));
      expect(result.problems).toEqual([]);
      expect(result.score?.notation).toBe(notation);
    }
    expect(validateScore(score()).score).not.toHaveProperty('notation');
  });

  test.each([
    [42, /expected the MusicXML file the score was made from/],
    ['../other/piece.musicxml', /must not go up a folder/],
    ['/etc/piece.musicxml', /relative to the score file/],
    ['https://example.org/piece.musicxml', /not a URL/],
    ['piece.mid', /ends in \.musicxml, \.xml, \.mxl/],
    ['a//piece.xml', /empty or "\." folder/],
  ])('%p is refused with a sentence on the "notation" path', (notation, message) => {
    const result = validateScore(score({ notation }));
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([{ path: 'notation', message: expect.stringMatching(message) }]);
  });
});

describe('loadScoreFile: the notation file', () => {
  let dir;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tutti-notation-field-'));
    await mkdir(join(dir, 'inner'));
    await writeFile(join(dir, 'inner', 'piece.musicxml'), '<score-partwise/>');
    await writeFile(join(dir, 'outside.musicxml'), '<score-partwise/>');
    await symlink(join(dir, 'outside.musicxml'), join(dir, 'inner', 'leak.musicxml'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const load = async (notation) => {
    const file = join(dir, 'inner', 'x.score.json');
    await writeFile(file, JSON.stringify(score({ notation })));
    return loadScoreFile(file);
  };

  test('a file that exists loads; one that does not is a problem on "notation"', async () => {
    expect((await load('piece.musicxml')).score?.notation).toBe('piece.musicxml');
    const missing = await load('gone.musicxml');
    expect(missing.ok).toBe(false);
    expect(missing.problems).toEqual([{ path: 'notation', message: expect.stringMatching(/gone\.musicxml not found next to the score/) }]);
  });

  test('a link that leaves the score folder is refused', async () => {
    const leak = await load('leak.musicxml');
    expect(leak.problems).toEqual([{ path: 'notation', message: expect.stringMatching(/outside the score's folder/) }]);
  });
});
