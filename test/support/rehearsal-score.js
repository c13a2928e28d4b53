// A small score for the rehearsal tests (docs/how-to/rehearse.md#rehearsing): 12 bars of 4/4 at 120 bpm,
// sections A–D every two bars from bar 1 (E at bar 9), a violin part with cues at bar 3 beat 3 and
// bar 6 beat 1, and printed bar numbers whose bars 7–12 repeat printed 5–10 (2nd time).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const rehearsalScore = () => ({
  format: 'tutti-score/1',
  id: 'rehearsal',
  title: 'Rehearsal',
  bars: 12,
  meter: [{ bar: 1, beats: 4, unit: 4 }],
  tempo: [{ at: { bar: 1 }, bpm: 120 }],
  sections: [
    { at: { bar: 1 }, mark: 'A' },
    { at: { bar: 3 }, mark: 'B', name: 'Loop me' },
    { at: { bar: 5 }, mark: 'C' },
    { at: { bar: 7 }, mark: 'D' },
    { at: { bar: 9 }, mark: 'E' },
  ],
  parts: [{ id: 'vln', name: 'Violin', osc: '/vln' }],
  printedBars: [
    { bar: 1, number: 1 },
    { bar: 7, number: 5, pass: 2 },
  ],
  cues: [
    { at: { bar: 3, beat: 3 }, osc: { part: 'vln', address: '/cue', args: ['enter'] }, label: 'Enter' },
    { at: { bar: 6, beat: 1 }, osc: { part: 'vln', address: '/cue', args: ['later'] }, label: 'Later' },
  ],
});

/** Write the score to a fresh temporary folder; returns its path. */
export function writeRehearsalScore() {
  const dir = mkdtempSync(path.join(tmpdir(), 'tutti-rehearsal-'));
  const file = path.join(dir, 'rehearsal.score.json');
  writeFileSync(file, JSON.stringify(rehearsalScore(), null, 2));
  return file;
}
