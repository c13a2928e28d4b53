// From a piece's written measures (read from MusicXML or MIDI by local-server/src/import/) to a
// score's time map in performance order: bars, meter, tempo (with gradual changes), sections and
// printed bar numbers (docs/tutorials/first-piece.md#import-your-piece). Runtime-free and deterministic.

import { printedRuns } from '#core/score/printed-bars.js';
import { cleanText } from './clean-text.js';
import { barQuarters, fitMeter } from './meter-fit.js';
import { performanceOrder } from './performance-order.js';

/**
 * A written measure with what the time map needs (offsets `at` are in quarter notes from the
 * measure's start).
 * @typedef {import('./performance-order.js').FlowMeasure & {
 *   number: number,
 *   time?: { beats: number, unit: number },
 *   length: number,
 *   implicit?: boolean,
 *   tempos: Array<{ at: number, qpm: number }>,
 *   ramps: Array<{ at: number, text: string }>,
 *   rehearsals: Array<{ at: number, text: string }>,
 * }} SourceMeasure
 */

/**
 * @typedef {{ bar: number, beat: number }} Position
 * @typedef {object} TimeMap
 * @property {number} bars
 * @property {Array<{ bar: number, beats: number, unit: number, count?: number }>} meter
 * @property {Array<{ at: Position, bpm: number, to?: number, until?: Position, unit?: number, dotted?: boolean }>} tempo
 * @property {Array<{ at: Position, mark: string }>} sections
 * @property {import('#core/score/printed-bars.js').PrintedRun[]} printedBars
 */

/**
 * The beats a bar is counted in: its `count` when it has one (6/8 counted in 2).
 * @param {{ beats: number, count?: number }} meter
 * @returns {number}
 */
const counted = (meter) => meter.count ?? meter.beats;

/** The tempo of a piece that gives none (quarter notes a minute), with a warning. */
export const DEFAULT_BPM = 120;
const BPM_MIN = 10;
const BPM_MAX = 400;
const MARK_CHARS = 8;

/**
 * Build the time map. Warnings (what could not be mapped, with the written measure it concerns)
 * go to `warn`; nothing is invented: no tempo at all gives 120 and a warning.
 * @param {ReadonlyArray<SourceMeasure>} measures in written order
 * @param {{ maxBars: number, warn: (measure: string, message: string) => void }} options
 * @returns {TimeMap}
 */
export function buildTimeMap(measures, { maxBars, warn }) {
  const meters = writtenMeters(measures, warn);
  const order = performanceOrder(measures, { maxBars, warn });
  /** @type {PlayedBar[]} */
  const played = order.map(({ index, pass }) => ({ index, pass, meter: meters[index], beatQ: 4 / meters[index].unit }));

  let laid = layout(measures, played);
  if (laid.marks.length === 0)
    warn(
      measures[0]?.label ?? '1',
      `has no tempo (no metronome mark, no <sound tempo>, no MIDI tempo): ${DEFAULT_BPM} quarter notes a minute assumed`,
    );
  else if (laid.marks[0].q > 1e-9) warn(laid.marks[0].label, 'holds the first tempo mark; it is used from the start');
  if (countFastCompoundInDottedBeats(measures, played, laid, warn)) laid = layout(measures, played);

  return {
    bars: played.length,
    meter: laid.meter,
    tempo: tempoEntries({ played, ...laid, warn }),
    sections: sectionEntries(laid.sections, warn),
    printedBars: printedRuns(played.map((p) => ({ number: measures[p.index].number, pass: p.pass }))),
  };
}

/**
 * A bar as played, with the meter it is counted in and the length of its beat in quarter notes
 * (1 for x/4, ½ for x/8, 1½ for 6/8 counted in dotted quarters).
 * @typedef {{ index: number, pass: number, meter: { beats: number, unit: number, count?: number }, beatQ: number }} PlayedBar
 */

// Where every played bar and beat falls, and the marks placed on them.
function layout(measures, played) {
  /** @type {TimeMap['meter']} */
  const meter = [];
  played.forEach((p, i) => {
    const last = meter[meter.length - 1];
    if (!last || last.beats !== p.meter.beats || last.unit !== p.meter.unit || last.count !== p.meter.count)
      meter.push({ bar: i + 1, ...p.meter });
  });
  // Each played bar's first beat (0-based beat index) and start in quarter notes.
  const barBeat = [];
  const barQ = [];
  let beat = 0;
  let q = 0;
  for (const p of played) {
    barBeat.push(beat);
    barQ.push(q);
    beat += counted(p.meter);
    q += counted(p.meter) * p.beatQ;
  }
  const totalBeats = beat;
  // The beat holding a quarter-note offset into a played bar.
  const positionAtQ = (bar, atQ) => {
    const within = Math.min(counted(played[bar].meter) - 1, Math.max(0, Math.floor(atQ / played[bar].beatQ + 1e-9)));
    return { bar: bar + 1, beat: within + 1, index: barBeat[bar] + within };
  };
  const marks = [];
  const ramps = [];
  const sections = [];
  played.forEach((p, bar) => {
    const m = measures[p.index];
    for (const t of m.tempos) marks.push({ q: barQ[bar] + t.at, qpm: t.qpm, pos: positionAtQ(bar, t.at), label: m.label });
    for (const r of m.ramps) ramps.push({ q: barQ[bar] + r.at, text: cleanText(r.text), pos: positionAtQ(bar, r.at), label: m.label });
    for (const r of m.rehearsals) sections.push({ pos: positionAtQ(bar, r.at), text: r.text, label: m.label, key: `${p.index}|${r.at}` });
  });
  marks.sort((a, b) => a.q - b.q);
  return { meter, barBeat, totalBeats, marks, ramps, sections, beatBpm: beatTempi(played, totalBeats, marks) };
}

// A compound meter (6/8, 9/8, 12/8, 6/16…) whose beats would go faster than a score allows (400 a
// minute: dotted quarter = 140 is 420 eighths) is counted in its dotted beats instead, as
// musicians count it, keeping its printed signature: 6/8 as { beats: 6, unit: 8, count: 2 } at the
// dotted-quarter tempo (docs/reference/meter.md#counted-beats). Returns whether any bar changed.
function countFastCompoundInDottedBeats(measures, played, laid, warn) {
  const told = new Set();
  let changed = false;
  played.forEach((p, bar) => {
    const { beats, unit } = p.meter;
    if (!(beats % 3 === 0 && beats >= 6 && unit >= 8 && p.beatQ === 4 / unit && p.meter.count === undefined)) return;
    let fastest = 0;
    for (let k = laid.barBeat[bar]; k < laid.barBeat[bar] + beats; k += 1) fastest = Math.max(fastest, laid.beatBpm[k]);
    if (fastest <= BPM_MAX) return;
    p.meter = { beats, unit, count: beats / 3 };
    p.beatQ = (3 * 4) / unit;
    changed = true;
    const label = measures[p.index].label;
    if (!told.has(`${beats}/${unit}`))
      warn(
        label,
        `is in ${beats}/${unit} at ${round(fastest)} beats a minute, faster than a score counts (${BPM_MAX}); counted in ${beats / 3} dotted beats a bar, still shown as ${beats}/${unit} (docs/reference/meter.md)`,
      );
    told.add(`${beats}/${unit}`);
  });
  return changed;
}

// The meter of every written measure: the time signature in force, or the measure's real length
// when it differs (a pickup, a measure without time signature, a cadenza), with a warning where
// that is not simply a pickup.
function writtenMeters(measures, warn) {
  let signature;
  let warnedNone = false;
  return measures.map((m, i) => {
    if (m.time) signature = m.time;
    const nominal = signature ?? { beats: 4, unit: 4 };
    if (!signature && !(m.length > 0)) {
      if (!warnedNone) warn(m.label, 'has no time signature and no notes to measure; counted as 4/4');
      warnedNone = true;
      return nominal;
    }
    if (!(m.length > 0) || Math.abs(m.length - barQuarters(nominal)) < 1e-6) return nominal;
    const real = fitMeter(m.length, nominal.unit);
    if (!real) {
      warn(
        m.label,
        `lasts ${round(m.length)} quarter notes, which no time signature of up to 32 beats holds; counted as ${nominal.beats}/${nominal.unit}`,
      );
      return nominal;
    }
    if (!signature) {
      if (!warnedNone)
        warn(m.label, `has no time signature; bars are counted by the length of their notes (this one ${real.beats}/${real.unit})`);
      warnedNone = true;
    } else if (!(m.implicit || i === 0)) {
      warn(
        m.label,
        `lasts ${real.beats}/${real.unit} though its time signature is ${nominal.beats}/${nominal.unit}; counted as ${real.beats}/${real.unit}`,
      );
    }
    return real;
  });
}

// The tempo of every beat in the meter's beats per minute: a beat whose span holds a tempo
// change lasts exactly what its parts last (so MIDI tempo events inside a beat keep their time).
function beatTempi(played, totalBeats, marks) {
  const bpm = new Float64Array(totalBeats);
  let qpm = marks[0]?.qpm ?? DEFAULT_BPM;
  let next = 0;
  let k = 0;
  let q = 0;
  for (const p of played) {
    const unitQ = p.beatQ;
    for (let b = 0; b < counted(p.meter); b += 1, k += 1) {
      const end = q + unitQ;
      let seconds = 0;
      let from = q;
      while (next < marks.length && marks[next].q < end - 1e-9) {
        const at = Math.max(from, marks[next].q);
        seconds += ((at - from) * 60) / qpm;
        from = at;
        qpm = marks[next].qpm;
        next += 1;
      }
      seconds += ((end - from) * 60) / qpm;
      bpm[k] = 60 / seconds;
      q = end;
    }
  }
  return bpm;
}

// Tempo entries: one at every mark (and at bar 1), one wherever a beat's tempo differs from the
// one before (a new meter unit, a change inside a beat), and a gradual change from an accel./rit.
// to the next mark.
function tempoEntries({ played, barBeat, totalBeats, beatBpm, marks, ramps, warn }) {
  const positionOf = (index) => {
    let lo = 0;
    let hi = barBeat.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (barBeat[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return { bar: lo + 1, beat: index - barBeat[lo] + 1 };
  };
  const unitAt = (index) => played[positionOf(index).bar - 1].beatQ;
  const markBeats = new Set(marks.map((m) => m.pos.index));
  /** @type {Map<number, { to: number, until: number }>} */
  const gradual = new Map();
  for (const ramp of ramps) {
    const target = marks.find((m) => m.q > ramp.q + 1e-9);
    if (!target) {
      warn(ramp.label, `"${ramp.text}" has no later tempo mark to arrive at; not mapped`);
      continue;
    }
    const from = ramp.pos.index;
    const until = target.pos.index;
    const between = [...markBeats].some((b) => b > from && b < until);
    let unitChanges = false;
    for (let k = from; k <= until && k < totalBeats && !unitChanges; k += 1) unitChanges = unitAt(k) !== unitAt(from);
    if (until <= from || between || unitChanges) {
      warn(
        ramp.label,
        `"${ramp.text}" could not become a gradual change (${until <= from ? 'the next tempo mark is in the same beat' : unitChanges ? 'the beat unit changes before the next tempo mark' : 'another tempo mark comes first'}); not mapped`,
      );
      continue;
    }
    gradual.set(from, { to: beatBpm[until], until });
  }

  const entries = [];
  let skipUntil = -1;
  let clamped = false;
  const clamp = (bpm, index) => {
    const out = Math.round(Math.min(BPM_MAX, Math.max(BPM_MIN, bpm)) * 1000) / 1000;
    if (out !== Math.round(bpm * 1000) / 1000 && !clamped) {
      clamped = true;
      const { bar } = positionOf(index);
      warn(
        `bar ${bar}`,
        `a tempo of ${round(bpm)} beats a minute is outside ${BPM_MIN}–${BPM_MAX}; set to ${out} (and the same for any other)`,
      );
    }
    return out;
  };
  const pickup = pickupInNextBeat(played);
  // A pickup's beats are given in the next bar's beat: ♩ = 100 over an eighth's pickup is one
  // entry, 100 counting quarters, not 200 (eighths) then 100 (issue 40, item 4).
  const shown = (/** @type {number} */ k) => (pickup && k < pickup.beats ? beatBpm[k] * pickup.ratio : beatBpm[k]);
  for (let k = 0; k < totalBeats; k += 1) {
    if (k < skipUntil) continue;
    const ramp = gradual.get(k);
    const same = k > 0 && Math.abs(shown(k) - shown(k - 1)) <= 1e-6 * shown(k);
    const changed = k === 0 || (markBeats.has(k) && !(same && k === pickup?.beats)) || !same;
    if (ramp) {
      entries.push({ at: positionOf(k), bpm: clamp(beatBpm[k], k), to: clamp(ramp.to, ramp.until), until: positionOf(ramp.until) });
      skipUntil = ramp.until;
    } else if (changed && pickup && k < pickup.beats) {
      entries.push({ at: positionOf(k), bpm: clamp(shown(k), k), ...pickup.unit });
    } else if (changed) {
      entries.push({ at: positionOf(k), bpm: clamp(beatBpm[k], k) });
    }
  }
  return entries;
}

/**
 * A first bar (a pickup) whose beat is another note value than the next bar's: how many beats it
 * has, the ratio from its beats' rate to the next bar's, and that beat as a tempo `unit`.
 * @param {PlayedBar[]} played
 * @returns {{ beats: number, ratio: number, unit: { unit: number, dotted?: true } } | undefined}
 */
function pickupInNextBeat(played) {
  const [first, next] = played;
  if (!first || !next || first.beatQ === next.beatQ) return undefined;
  if (counted(first.meter) * first.beatQ >= counted(next.meter) * next.beatQ - 1e-9) return undefined; // not shorter: no pickup
  const plain = 4 / next.beatQ;
  const dotted = 4 / (next.beatQ / 1.5);
  const unit = [1, 2, 4, 8, 16, 32].includes(plain)
    ? { unit: plain }
    : [1, 2, 4, 8, 16, 32].includes(dotted)
      ? { unit: dotted, dotted: /** @type {true} */ (true) }
      : undefined;
  return unit && { beats: counted(first.meter), ratio: first.beatQ / next.beatQ, unit };
}

// Sections from rehearsal marks: one per mark where it is first played; a mark played again
// (a repeat, a D.C.) is a section again only when another section came in between, so the
// section shown is always the one in force. At most 8 characters, one per beat.
function sectionEntries(found, warn) {
  const out = [];
  const seen = new Set();
  let lastIndex = -1;
  for (const s of found) {
    const text = cleanText(s.text).replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const again = seen.has(s.key);
    seen.add(s.key);
    if (again && out.length && out[out.length - 1].source === s.key) continue;
    if (s.pos.index <= lastIndex) {
      if (!again) warn(s.label, `rehearsal mark "${text}" shares its beat with the one before; left out`);
      continue;
    }
    lastIndex = s.pos.index;
    const mark = [...text].slice(0, MARK_CHARS).join('');
    if (!again && mark !== text) warn(s.label, `rehearsal mark "${text}" is longer than ${MARK_CHARS} characters; shortened to "${mark}"`);
    out.push({
      source: s.key,
      section:
        text === mark
          ? { at: { bar: s.pos.bar, beat: s.pos.beat }, mark }
          : { at: { bar: s.pos.bar, beat: s.pos.beat }, mark, name: text.slice(0, 200) },
    });
  }
  return out.map((o) => o.section);
}

const round = (x) => Math.round(x * 100) / 100;
