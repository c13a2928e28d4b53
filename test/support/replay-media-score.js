// A short score with an image and a sound, for the replay's media (docs/how-to/record-and-replay.md#replaying-a-record)
// written to a temporary folder: 4/4 at 240 bpm (a bar a second), 8 bars; bar 1 shows
// the image "lines" (media/lines.svg), bar 3 plays the 3-s swell (media/swell.wav) at gain 0.5, bar 5
// takes the image away.

import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MEDIA = fileURLToPath(new URL('../../scores/media/', import.meta.url));

/** @returns {{ file: string, dir: string }} the score's path and its folder */
export function writeReplayMediaScore({ bpm = 240 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-replay-media-'));
  mkdirSync(join(dir, 'media'));
  copyFileSync(join(MEDIA, 'tidal-lines/swell.wav'), join(dir, 'media', 'swell.wav'));
  copyFileSync(join(MEDIA, 'tidal-lines/lines.svg'), join(dir, 'media', 'lines.svg'));
  const score = {
    format: 'tutti-score/1',
    id: 'replay-media',
    title: 'Replay media test',
    bars: 8,
    meter: [{ bar: 1, beats: 4, unit: 4 }],
    tempo: [{ at: { bar: 1 }, bpm }],
    assets: [
      { id: 'lines', kind: 'image', src: 'media/lines.svg' },
      { id: 'swell', kind: 'audio', src: 'media/swell.wav' },
    ],
    view: { text: 'Welcome' },
    cues: [
      { at: { bar: 1 }, view: { text: 'Picture', image: 'lines' } },
      { at: { bar: 3 }, audio: { asset: 'swell', gain: 0.5 } },
      { at: { bar: 5 }, view: { text: 'Plain', image: null } },
    ],
  };
  const file = join(dir, 'replay-media.score.json');
  writeFileSync(file, JSON.stringify(score, null, 2));
  return { file, dir };
}
