// A short score for the rehearsal-mode suites (docs/how-to/rehearse.md#rehearsal-mode), written to a
// temporary folder with its sound: 4/4 at 240 bpm (a bar a second), 40 bars; a view text "Bar N"
// every 2 bars, the bell every 4 bars (bar 1, 5, 9 …), a prompt at bar 6 for 8 beats and a
// reaction window from bar 12 to bar 14.

import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BELL = fileURLToPath(new URL('../../scores/media/demo/bell.wav', import.meta.url));

/** @returns {string} the score's path */
export function writeRehearsalModeScore({ bars = 40, bpm = 240 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-rehearsal-mode-'));
  mkdirSync(join(dir, 'media'));
  copyFileSync(BELL, join(dir, 'media', 'bell.wav'));
  const cues = [];
  for (let bar = 1; bar <= bars; bar += 2)
    cues.push({ at: { bar }, view: { text: `Bar ${bar}`, color: bar % 4 === 1 ? '#1a1a2e' : '#2e1a47' } });
  for (let bar = 1; bar <= bars; bar += 4) cues.push({ at: { bar }, audio: { asset: 'bell', gain: 0.8 } });
  const score = {
    format: 'tutti-score/1',
    id: 'rehearsal',
    title: 'Rehearsal test',
    bars,
    meter: [{ bar: 1, beats: 4, unit: 4 }],
    tempo: [{ at: { bar: 1 }, bpm }],
    sections: [
      { at: { bar: 1 }, mark: 'A' },
      { at: { bar: 21 }, mark: 'B' },
    ],
    assets: [{ id: 'bell', kind: 'audio', src: 'media/bell.wav' }],
    view: { text: 'Welcome' },
    cues,
    prompts: [
      {
        id: 'way',
        at: { bar: 6 },
        beats: 8,
        question: 'Which way?',
        options: [
          { id: 'a', label: 'Left' },
          { id: 'b', label: 'Right' },
        ],
      },
    ],
    reactions: [{ at: { bar: 12 }, until: { bar: 14, beat: 4 }, full: 40 }],
  };
  const file = join(dir, 'rehearsal.score.json');
  writeFileSync(file, JSON.stringify(score, null, 2));
  return file;
}
