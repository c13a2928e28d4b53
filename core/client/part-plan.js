// What a part page shows and clicks (docs/how-to/part-pages.md#part-pages), from the part's cues (fetched once,
// core/score/part-cues.js) and the beat sounding now (the audience app's flywheel): the countdown
// in beats to the player's next cue, the cues after it, and which beats of the click are accented
// or count a player in. Pure: the page and the tests call the same functions.

import { beatAt, nextBeat, followingSegment } from './flywheel.js';
import { beatInSegment } from '#core/engine/segment.js';
import { isLoopState } from '#core/engine/loop.js';

/**
 * @typedef {import('../score/part-cues.js').PartCue} PartCue
 * @typedef {{ index: number, bar: number, beat: number, beats: number, at: number }} PlanBeat
 * @typedef {{ start: number, end: number, passesAfter: number }} LoopAhead a rehearsal loop seen
 *   from the beat shown: beats `start`…`end − 1` come round again `passesAfter` more times
 *   (Infinity: until released; 0: this is the last pass)
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
 * The player's next cues seen from beat `index` inside a rehearsal loop (docs/how-to/rehearse.md#rehearsing):
 * the cues up to the loop's end, then those of the next passes, then — after the last pass — those
 * after the loop; each countdown counts the beats as they will be played, across the loop point.
 * @param {PartCue[]} cues
 * @param {number} index
 * @param {number} count
 * @param {LoopAhead | null} loop
 * @returns {Array<PartCue & { inBeats: number }>}
 */
export function upcomingCuesLooped(cues, index, count, loop) {
  if (!loop || loop.passesAfter <= 0 || index < loop.start || index >= loop.end) return upcomingCues(cues, index, count);
  const length = loop.end - loop.start;
  const inRange = (from) => cues.slice(firstCueFrom(cues, from), firstCueFrom(cues, loop.end));
  /** @type {Array<PartCue & { inBeats: number }>} */
  const out = inRange(index).map((c) => ({ ...c, inBeats: c.i - index }));
  const round = inRange(loop.start);
  const toEnd = loop.end - index;
  let pass = 0;
  for (; pass < loop.passesAfter && out.length < count && round.length > 0; pass += 1) {
    for (const c of round) out.push({ ...c, inBeats: toEnd + pass * length + (c.i - loop.start) });
  }
  if (out.length < count && Number.isFinite(loop.passesAfter)) {
    const leftAt = toEnd + loop.passesAfter * length;
    for (const c of cues.slice(firstCueFrom(cues, loop.end), firstCueFrom(cues, loop.end) + count))
      out.push({ ...c, inBeats: leftAt + (c.i - loop.end) });
  }
  return out.slice(0, count);
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
 * comes within the next bar (the last `beats` beats before it), with the count (1 … beats) —
 * across a rehearsal loop's end too.
 * @param {PlanBeat} beat
 * @param {PartCue[]} cues the part's cues
 * @param {LoopAhead | null} [loop]
 * @returns {{ accent: boolean, countIn: number | null }}
 */
export function clickFor(beat, cues, loop = null) {
  // The first cue after this beat (the few cues on this very beat are not ahead of it).
  const next = upcomingCuesLooped(cues, beat.index, 16, loop).find((c) => c.inBeats > 0);
  const ahead = next ? next.inBeats : Infinity;
  return { accent: beat.beat === 1, countIn: ahead <= beat.beats ? beat.beats - ahead + 1 : null };
}

/**
 * The beats of a segment that sound after `serverNow` and up to `horizonMs` later (the click is
 * scheduled that far ahead on the audio clock), at most `limit` of them; at a rehearsal loop's end
 * they go on with the segment that follows it (`segment.then`).
 * @param {import('../engine/segment.js').Segment} segment
 * @param {number} serverNow
 * @param {number} horizonMs
 * @param {number} [limit]
 * @returns {import('./flywheel.js').FlywheelBeat[]}
 */
export function beatsAhead(segment, serverNow, horizonMs, limit = 64) {
  const then = followingSegment(segment);
  let seg = then && serverNow >= then.at ? then : segment;
  const after = (/** @type {import('./flywheel.js').FlywheelBeat | null} */ beat) => {
    if (beat || seg !== segment || !then) return beat;
    seg = then;
    return beatInSegment(then, then.index);
  };
  const current = beatAt(seg, serverNow);
  let beat = after(current ? nextBeat(seg, current.index) : beatInSegment(seg, seg.index));
  const out = [];
  while (beat && beat.at <= serverNow + horizonMs && out.length < limit) {
    if (beat.at > serverNow) out.push(beat);
    beat = after(nextBeat(seg, beat.index));
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

/**
 * A rehearsal loop as the part page counts across it, from the state's `loop` and the segment in
 * force at the beat shown (core/client/flywheel.js): the pass that beat belongs to (`passShift`:
 * +1 once the next pass's segment is sounding ahead of the server) and how many more times the
 * range comes round after it. Null when no loop is set.
 * @param {unknown} loop the state's `loop` as it was for the segment in force
 * @param {boolean} goesRound whether the segment in force says the loop's start follows it (`then`)
 * @param {number} passShift
 * @returns {(LoopAhead & { pass: number, of: number | null }) | null}
 */
export function loopAheadOf(loop, goesRound, passShift) {
  if (!isLoopState(loop)) return null;
  const pass = loop.pass + passShift;
  const passesAfter = !goesRound ? 0 : loop.of === null ? Infinity : Math.max(0, loop.of - pass);
  return { start: loop.from.index, end: loop.end, passesAfter, pass, of: loop.of };
}
