// A small score for the console editor's suites, written to a temporary folder (a save rewrites
// it): 12 bars of 4/4 at 180 with a repeat played out (printed 1–4 twice, then 5–8), so a
// printed bar ("2, second time") and a performance bar (6) differ.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const editorScore = () => ({
  format: 'tutti-score/1',
  id: 'editor-test',
  title: 'Editor test',
  bars: 12,
  meter: [{ bar: 1, beats: 4, unit: 4 }],
  tempo: [{ at: { bar: 1 }, bpm: 180 }],
  sections: [
    { at: { bar: 1 }, mark: 'A', name: 'Verse' },
    { at: { bar: 9 }, mark: 'B', name: 'Coda' },
  ],
  printedBars: [
    { bar: 1, number: 1 },
    { bar: 5, number: 1, pass: 2 },
    { bar: 9, number: 5 },
  ],
  view: { text: 'Welcome' },
  cues: [{ at: { bar: 3 }, view: { instruction: 'Listen' } }],
});

/** Write the editor test score into a new temporary folder; returns its path and folder. */
export function writeEditorScore() {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-editor-'));
  const path = join(dir, 'editor-test.score.json');
  writeFileSync(path, `${JSON.stringify(editorScore(), null, 2)}\n`);
  return { dir, path };
}
