// A short score with a branching prompt, written to a temporary folder, for the vote suites
// (docs/reference/audience-protocol.md#audience-voices): 4/4 at `bpm`, sections A (bar 1), B (5), C (9), D (13); the
// prompt "path" opens at bar 2 for `beats` beats; option "c" jumps to C, "d" to D, "stay" has no branch.
// A reaction window runs from bar 13 to bar 16 beat 4 (level 1 = 40 taps/s) unless `reactions` says otherwise.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * @param {{ bpm?: number, beats?: number, bars?: number, at?: { bar: number, beat?: number }, reactions?: object[], prompt?: boolean }} [options]
 * @returns {string} the score's path
 */
export function writeVoteScore({
  bpm = 240,
  beats = 8,
  bars = 16,
  at = { bar: 2 },
  reactions = [{ at: { bar: 13 }, until: { bar: 16, beat: 4 }, full: 40 }],
  prompt = true,
} = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-votes-'));
  const score = {
    format: 'tutti-score/1',
    id: 'votes',
    title: 'Votes',
    bars,
    meter: [{ bar: 1, beats: 4, unit: 4 }],
    tempo: [{ at: { bar: 1 }, bpm }],
    sections: [
      { at: { bar: 1 }, mark: 'A' },
      { at: { bar: 5 }, mark: 'B' },
      { at: { bar: 9 }, mark: 'C' },
      { at: { bar: 13 }, mark: 'D' },
    ],
    view: { text: 'Votes' },
    reactions,
    prompts: !prompt
      ? []
      : [
          {
            id: 'path',
            at,
            beats,
            question: 'Which way?',
            options: [
              { id: 'c', label: 'To C', section: 'C' },
              { id: 'd', label: 'To D', section: 'D' },
              { id: 'stay', label: 'Stay' },
            ],
          },
        ],
  };
  const file = join(dir, 'votes.score.json');
  writeFileSync(file, JSON.stringify(score, null, 2));
  return file;
}

/** A device id as the audience page makes one: 22 characters of base64url. */
export function deviceId(n) {
  return `dev-${String(n).padStart(18, '0')}`;
}
