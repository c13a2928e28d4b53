// One MusicXML <measure> of one part → what the time map needs: its real length, a new time
// signature, tempo marks (<metronome>, <sound tempo>), accel./rit. words, rehearsal marks,
// repeat barlines, endings and the jumps (<sound dacapo|dalsegno|segno|coda|tocoda|fine>).
// Offsets are counted in divisions (<divisions> per quarter note) and returned in quarter notes.

import { numeratorBeats, METER_UNITS } from '#core/import/meter-fit.js';
import { all, attr, childrenOf, first, tagOf, textOf } from './xml-tree.js';

/** Quarter notes in each MusicXML note type. */
const NOTE_QUARTERS = {
  maxima: 32,
  long: 16,
  breve: 8,
  whole: 4,
  half: 2,
  quarter: 1,
  eighth: 0.5,
  '16th': 0.25,
  '32nd': 0.125,
  '64th': 0.0625,
  '128th': 0.03125,
};
const RAMP_WORDS =
  /\b(accel(?:\.|erando)?|string(?:\.|endo)|rit(?:\.|ard\.?|ardando)?|riten(?:\.|uto)?|rall(?:\.|entando)?|allarg(?:\.|ando)?|slentando|calando)(?=\W|$)/i;
const TEMPO_WORDS =
  /\b(a tempo|tempo i|tempo primo|meno mosso|più mosso|piu mosso|poco meno|poco più|poco piu|adagio|andante|andantino|allegro|allegretto|largo|larghetto|lento|moderato|presto|prestissimo|vivace|grave)\b/i;
const JUMP_WORDS = /(\bd\.\s?[cs]\.|\bda capo\b|\bdal segno\b|\bto coda\b|\bal coda\b|^fine$)/i;

/**
 * @typedef {object} MeasureReading
 * @property {number} length real length in quarter notes (the furthest any voice reaches)
 * @property {number} soundingLength where its last note (not rest) ends, in quarter notes
 * @property {boolean} sounding whether any note in it is not a rest (a measure of rests only says nothing reliable about its length: whole-bar rests are often written without their backups)
 * @property {{ beats: number, unit: number } | undefined} time
 * @property {Array<{ at: number, qpm: number }>} tempos
 * @property {Array<{ at: number, text: string }>} ramps
 * @property {Array<{ at: number, text: string }>} rehearsals
 * @property {Partial<import('#core/import/performance-order.js').FlowMeasure> & { forwardRepeatNext?: boolean }} flow (forwardRepeatNext: a forward repeat on its right barline, which starts the next measure)
 */

/**
 * Read one measure. `state.divisions` carries over from measure to measure within a part;
 * `state.declared` says whether the part has declared it yet.
 * @param {import('./xml-tree.js').XmlNode} measure
 * @param {{ divisions: number, declared: boolean }} state
 * @param {(message: string) => void} warn a warning about this measure
 * @returns {MeasureReading}
 */
export function readMeasure(measure, state, warn) {
  /** @type {MeasureReading} */
  const out = { length: 0, soundingLength: 0, sounding: false, time: undefined, tempos: [], ramps: [], rehearsals: [], flow: {} };
  let pos = 0;
  let furthest = 0;
  let soundingEnd = 0;
  const quarters = (divisions) => divisions / state.divisions;
  for (const node of childrenOf(measure)) {
    const tag = tagOf(node);
    if (tag === 'attributes') {
      const divisions = Number(textOf(first(node, 'divisions')));
      if (divisions > 0) {
        // A new <divisions> counts from where it stands: what came before in this measure is
        // rescaled to it (03c-Rhythm-DivisionChange in the MusicXML test suite changes it
        // mid-bar). Before the part's first <divisions> there is nothing to rescale from: notes
        // written ahead of it (some exporters do) are read in the divisions it then declares.
        if (state.declared) {
          pos *= divisions / state.divisions;
          furthest *= divisions / state.divisions;
          soundingEnd *= divisions / state.divisions;
        }
        state.divisions = divisions;
        state.declared = true;
      }
      const time = first(node, 'time');
      if (time) out.time = readTime(time, warn) ?? out.time;
    } else if (tag === 'note') {
      const duration = Number(textOf(first(node, 'duration'))) || 0;
      const rest = first(node, 'rest') !== undefined;
      if (!rest) out.sounding = true;
      if (first(node, 'chord')) continue; // a chord note sounds with the note before it
      pos += duration;
      if (!rest) soundingEnd = Math.max(soundingEnd, pos);
    } else if (tag === 'backup') {
      pos -= Number(textOf(first(node, 'duration'))) || 0;
    } else if (tag === 'forward') {
      pos += Number(textOf(first(node, 'duration'))) || 0;
    } else if (tag === 'direction') {
      const offset = Number(textOf(first(node, 'offset'))) || 0;
      readDirection(node, quarters(Math.max(0, pos + offset)), out, warn);
    } else if (tag === 'sound') {
      readSound(node, quarters(Math.max(0, pos)), out, false);
    } else if (tag === 'barline') {
      readBarline(node, out.flow);
    }
    furthest = Math.max(furthest, pos);
  }
  out.length = quarters(furthest);
  out.soundingLength = quarters(soundingEnd);
  return out;
}

function readTime(time, warn) {
  if (first(time, 'senza-misura')) {
    warn('is senza misura (no time signature); counted by the length of its notes');
    return undefined;
  }
  const beatsNodes = all(time, 'beats');
  const typeNodes = all(time, 'beat-type');
  if (beatsNodes.length !== 1 || typeNodes.length !== 1) {
    // A composite signature such as 3/8+2/4: counted in its smallest unit.
    const unit = Math.max(...typeNodes.map((n) => Number(textOf(n))));
    const total = beatsNodes.reduce(
      (sum, n, i) => sum + (numeratorBeats(textOf(n)) * unit) / Number(textOf(typeNodes[i] ?? typeNodes[0])),
      0,
    );
    if (METER_UNITS.includes(unit) && Number.isInteger(total) && total >= 1 && total <= 32) return { beats: total, unit };
    warn('has a time signature Tutti cannot count; its notes decide the bar length');
    return undefined;
  }
  const beats = numeratorBeats(textOf(beatsNodes[0]));
  const unit = Number(textOf(typeNodes[0]));
  if (!(beats >= 1 && beats <= 32) || !METER_UNITS.includes(unit)) {
    warn(
      `has the time signature ${textOf(beatsNodes[0])}/${textOf(typeNodes[0])}, which a score cannot hold (1–32 beats of 1, 2, 4, 8, 16 or 32); its notes decide the bar length`,
    );
    return undefined;
  }
  return { beats, unit };
}

function readDirection(direction, at, out, warn) {
  let tempoFromMark;
  for (const type of all(direction, 'direction-type')) {
    for (const node of childrenOf(type)) {
      const tag = tagOf(node);
      if (tag === 'metronome') {
        tempoFromMark = metronomeQpm(node);
        if (tempoFromMark === undefined && !first(direction, 'sound'))
          warn('has a metronome mark Tutti cannot read (a metric modulation or swing); not mapped');
      } else if (tag === 'rehearsal') {
        out.rehearsals.push({ at, text: textOf(node) });
      } else if (tag === 'words') {
        readWords(textOf(node), at, out, direction, warn);
      }
    }
  }
  const sound = first(direction, 'sound');
  if (tempoFromMark !== undefined) out.tempos.push({ at, qpm: tempoFromMark });
  if (sound) readSound(sound, at, out, tempoFromMark !== undefined);
}

function readWords(text, at, out, direction, warn) {
  if (!text) return;
  const sound = first(direction, 'sound');
  if (RAMP_WORDS.test(text)) out.ramps.push({ at, text });
  else if (JUMP_WORDS.test(text) && !(sound && ['dacapo', 'dalsegno', 'tocoda', 'fine'].some((k) => attr(sound, k) !== undefined))) {
    warn(
      `says "${text}" without a playback jump (<sound dacapo|dalsegno|tocoda|fine>); not played out — add the jump in your notation program, or check the bar count`,
    );
  } else if (TEMPO_WORDS.test(text) && !(sound && attr(sound, 'tempo') !== undefined) && !first(direction, 'direction-type', 'metronome')) {
    warn(`says "${text}" without a metronome mark or playback tempo; the tempo does not change here`);
  }
}

// <sound tempo> (quarter notes a minute) and the jumps; a metronome mark read from the same
// direction wins over its <sound tempo>.
function readSound(sound, at, out, hasMark) {
  const tempo = Number(attr(sound, 'tempo'));
  if (!hasMark && attr(sound, 'tempo') !== undefined && tempo > 0) out.tempos.push({ at, qpm: tempo });
  const name = (key) => attr(sound, key);
  if (name('segno') !== undefined) out.flow.segno = name('segno');
  if (name('coda') !== undefined) out.flow.coda = name('coda');
  if (name('tocoda') !== undefined) out.flow.tocoda = name('tocoda');
  if (name('dalsegno') !== undefined) out.flow.dalsegno = name('dalsegno');
  if (name('dacapo') === 'yes') out.flow.dacapo = true;
  if (name('fine') !== undefined) out.flow.fine = true;
}

/**
 * Quarter notes a minute of a `<metronome>`: `per-minute` (its first number: "c. 120" is 120)
 * times the beat unit (dots included); undefined for marks relating two note values.
 * @param {import('./xml-tree.js').XmlNode} metronome
 * @returns {number | undefined}
 */
export function metronomeQpm(metronome) {
  const units = all(metronome, 'beat-unit');
  const perMinute = Number(/\d+(?:\.\d+)?/.exec(textOf(first(metronome, 'per-minute')))?.[0]);
  if (units.length !== 1 || !(perMinute > 0)) return undefined;
  const base = NOTE_QUARTERS[textOf(units[0])];
  if (base === undefined) return undefined;
  const dots = all(metronome, 'beat-unit-dot').length;
  const unitQuarters = base * (2 - 1 / 2 ** dots);
  return perMinute * unitQuarters;
}

function readBarline(barline, flow) {
  const repeat = first(barline, 'repeat');
  if (repeat) {
    // A forward repeat written on a bar's right barline (some exporters do) starts the next bar.
    if (attr(repeat, 'direction') === 'forward') flow[attr(barline, 'location') === 'right' ? 'forwardRepeatNext' : 'forwardRepeat'] = true;
    if (attr(repeat, 'direction') === 'backward') flow.backwardRepeat = Math.max(2, Number(attr(repeat, 'times')) || 2);
  }
  const ending = first(barline, 'ending');
  if (ending) {
    const type = attr(ending, 'type');
    if (type === 'start') flow.endingStart = (attr(ending, 'number') ?? '1').match(/\d+/g)?.map(Number) ?? [1];
    if (type === 'stop' || type === 'discontinue') flow.endingStop = true;
  }
  if (first(barline, 'segno') && flow.segno === undefined) flow.segno = 'segno';
  if (first(barline, 'coda') && flow.coda === undefined) flow.coda = 'coda';
}
