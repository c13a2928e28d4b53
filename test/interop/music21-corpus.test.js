// music21's corpus (pip package music21, installed by .ci/run) holds real engravings the import
// must read as a player's part prints them. Schumann's String Quartet op. 41 no. 1, ii (Presto,
// 6/8, dotted quarter = 138): its eighths would run at 414 a minute, so the bars are counted in 2
// and keep their printed 6/8 (issue 40, item 22; docs/reference/meter.md#counted-beats).

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { importNotationFile } from '../../local-server/src/import/import-file.js';

/** music21's corpus folder, or undefined when music21 is not installed. */
function music21Corpus() {
  const found = spawnSync('python3', ['-c', 'import music21, os; print(os.path.join(os.path.dirname(music21.__file__), "corpus"))'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  const folder = found.status === 0 ? found.stdout.trim() : '';
  return folder && existsSync(folder) ? folder : undefined;
}

let corpus;
beforeAll(() => {
  corpus = music21Corpus();
  if (!corpus) throw new Error('npm run test:interop needs music21 (pip install music21), whose corpus holds the Schumann quartet');
});

test("Schumann op. 41 no. 1, ii from music21's corpus: 6/8 counted in 2 at dotted quarter = 138", async () => {
  const { score, warnings } = await importNotationFile(path.join(corpus, 'schumann_robert', 'opus41no1', 'movement2.mxl'));
  expect(score.bars).toBe(103);
  expect(score.meter).toEqual([{ bar: 1, beats: 6, unit: 8, count: 2 }]);
  expect(score.tempo).toEqual([{ at: { bar: 1, beat: 1 }, bpm: 138 }]);
  expect(score.parts.map((p) => p.name)).toEqual(['1st Violin', '2nd Violin', 'Viola', 'Cello']);
  expect(warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/^is in 6\/8 at 414 beats a minute.*still shown as 6\/8/));
}, 60_000);
