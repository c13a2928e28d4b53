// What a part page shows and clicks (README.md, "Part pages"), from the part's cues (fetched once,
// core/score/part-cues.js) and the beat sounding now (the audience app's flywheel): the countdown
// in beats to the player's next cue, the cues after it, and which beats of the click are accented
// or count a player in. Pure: the page and the tests call the same functions.

import { beatAt, nextBeat } from './flywheel.js';
import { beatInSegment } from '#core/score/segment.js';

/**
 * @typedef {import('../score/part-cues.js').PartCue} PartCue
 * @typedef {{ index: number, bar: number, beat: number, beats: number, at: number }} PlanBeat
 */

/**
 * The cues one part follows: its own and those to every musician (no part); `'*'` follows all.
 * @param {PartCue[]} cues sorted by beat
 * @param {string} partId
 * @returns {PartCue[]}
 */
export function cuesForPart(cues, partId) {
  return partId === '*' ? cues.slice() : cues.filter((c) => c.part === partId || c.part === null);
}

/**
 * Position of the first cue at or after beat `index` (binary search; cues sorted by beat).
 * @param {PartCue[]} cues
 * @param {number} index
 */
export function firstCueFrom(cues, index) {
  let lo = 0;
  let hi = cues.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cues[mid].i < index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The player's next cues seen from beat `index`: the cue sounding on this very beat counts
 * (countdown 0, "now"), then the later ones, each with its countdown in beats.
 * @param {PartCue[]} cues
 * @param {number} index
 * @param {number} count how many to list
 * @returns {Array<PartCue & { inBeats: number }>}
 */
export function upcomingCues(cues, index, count) {
  const from = firstCueFrom(cues, index);
  return cues.slice(from, from + count).map((c) => ({ ...c, inBeats: c.i - index }));
}

/**
 * What a cue says, for a musician: the composer's label when there is one, else its arguments.
 * @param {PartCue} cue
 * @returns {string}
 */
export function cueText(cue) {
  if (cue.label) return cue.label;
  const args = cue.args.map((a) => String(a)).filter((a) => a !== '');
  return args.length ? args.join(' · ') : cue.address;
}

/**
 * How a beat clicks: accented on the downbeat; a count-in beat when one of the player's cues
 * comes within the next bar (the last `beats` beats before it), with the count (1 … beats).
 * @param {PlanBeat} beat
 * @param {PartCue[]} cues the part's cues
 * @returns {{ accent: boolean, countIn: number | null }}
 */
export function clickFor(beat, cues) {
  const next = cues[firstCueFrom(cues, beat.index + 1)];
  const ahead = next ? next.i - beat.index : Infinity;
  return { accent: beat.beat === 1, countIn: ahead <= beat.beats ? beat.beats - ahead + 1 : null };
}

/**
 * The beats of a segment that sound after `serverNow` and up to `horizonMs` later (the click is
 * scheduled that far ahead on the audio clock), at most `limit` of them.
 * @param {import('../score/segment.js').Segment} segment
 * @param {number} serverNow
 * @param {number} horizonMs
 * @param {number} [limit]
 * @returns {import('./flywheel.js').FlywheelBeat[]}
 */
export function beatsAhead(segment, serverNow, horizonMs, limit = 64) {
  const current = beatAt(segment, serverNow);
  let beat = current ? nextBeat(segment, current.index) : beatInSegment(segment, segment.index);
  const out = [];
  while (beat && beat.at <= serverNow + horizonMs && out.length < limit) {
    if (beat.at > serverNow) out.push(beat);
    beat = nextBeat(segment, beat.index);
  }
  return out;
}

/**
 * The rehearsal mark in force at beat `index` (the last one starting at or before it), or null.
 * @template {{ i: number }} S
 * @param {S[]} sections sorted by beat
 * @param {number} index
 * @returns {S | null}
 */
export function sectionAt(sections, index) {
  let found = null;
  for (const section of sections) {
    if (section.i > index) break;
    found = section;
  }
  return found;
}
