// A MusicXML document (score-partwise, as every notation program exports) → the neutral piece
// the time map is built from (core/import/time-map.js): title, composer, parts and, per written
// measure, its length, meter, marks and barlines. Structure (barlines, jumps, time signatures)
// comes from the first part; lengths are the longest any part fills; marks are gathered from
// every part (an orchestral score often writes a tempo mark in several staves) without doubles.

import { ImportError } from '#core/import/import-error.js';
import { readMeasure } from './musicxml-measure.js';
import { readPartNames } from './musicxml-parts.js';
import { all, attr, first, parseXml, tagOf, textOf } from './xml-tree.js';

/**
 * @typedef {object} NotationPiece
 * @property {string} [title]
 * @property {string} [composer]
 * @property {string[]} parts the parts' names
 * @property {string[][]} [partAlternates] other names the file gives each part (MusicXML), which
 *   may tell apart two parts of one name
 * @property {import('#core/import/time-map.js').SourceMeasure[]} measures
 */

/**
 * Read a MusicXML document's text.
 * @param {string} text
 * @param {{ maxMeasures: number, warn: (measure: string, message: string) => void, what?: string }} options
 * @returns {NotationPiece}
 */
export function readMusicXml(text, { maxMeasures, warn, what = 'the file' }) {
  const tree = parseXml(text, what);
  const root = tree.find((n) => tagOf(n) === 'score-partwise' || tagOf(n) === 'score-timewise');
  if (!root) {
    const top = tree.map(tagOf).find((t) => t && !t.startsWith('?') && t !== '#text' && t !== '!DOCTYPE');
    throw new ImportError(`${what} is XML but not a MusicXML score (its root element is <${top ?? 'nothing'}>, not <score-partwise>)`);
  }
  if (tagOf(root) === 'score-timewise')
    throw new ImportError(
      `${what} is a timewise MusicXML score; export it as (partwise) MusicXML, which every notation program does by default`,
    );

  const scoreParts = all(first(root, 'part-list'), 'score-part');
  const names = readPartNames(scoreParts);
  const partNodes = all(root, 'part');
  if (partNodes.length === 0) throw new ImportError(`${what} has no <part>: a MusicXML score needs at least one part with measures`);
  const measureCount = all(partNodes[0], 'measure').length;
  if (measureCount === 0) throw new ImportError(`${what} has no measures`);
  if (measureCount > maxMeasures)
    throw new ImportError(
      `${what} has ${measureCount.toLocaleString('en')} measures; Tutti imports up to ${maxMeasures.toLocaleString('en')}`,
    );

  const readings = partNodes.map((part, p) => {
    const state = { divisions: 1, declared: false };
    return all(part, 'measure').map((measure, i) => {
      const label = attr(measure, 'number') ?? String(i + 1);
      return {
        label,
        implicit: attr(measure, 'implicit') === 'yes',
        reading: readMeasure(measure, state, p === 0 ? (message) => warn(label, message) : () => {}),
      };
    });
  });

  /** The time signature in force, as quarter notes per bar (none yet: 0). */
  let signatureQuarters = 0;
  const measures = readings[0].map((m, i) => {
    const same = readings.map((r) => r[i]?.reading).filter(Boolean);
    const reading = m.reading;
    const flow = { ...reading.flow };
    delete flow.forwardRepeatNext; // the next measure's (below)
    if (readings[0][i - 1]?.reading.flow.forwardRepeatNext) flow.forwardRepeat = true;
    if (reading.time) signatureQuarters = (reading.time.beats * 4) / reading.time.unit;
    const sounding = same.some((r) => r.sounding);
    // A measure of rests only: its rests say little about its length (whole-bar rests are often
    // written without their backups, two of them then seeming to fill two bars), so it keeps its
    // time signature's length (0 here) — unless its rests are shorter than that: a bar split at a
    // repeat ("6a": one quarter rest in 4/4) lasts what it holds, as a pickup (implicit) does.
    const restLength = Math.max(0, ...same.map((r) => r.length));
    const shortRests = restLength > 0 && restLength < signatureQuarters - 1e-6;
    return {
      ...flow,
      label: m.label,
      number: 0,
      implicit: m.implicit,
      time: reading.time,
      length:
        sounding || m.implicit
          ? Math.max(0, ...same.filter((r) => r.sounding || m.implicit).map((r) => withinSignature(r, signatureQuarters)))
          : shortRests
            ? restLength
            : 0,
      tempos: unique(
        same.flatMap((r) => r.tempos),
        (t) => `${t.at}`,
      ),
      ramps: unique(
        same.flatMap((r) => r.ramps),
        (t) => `${t.at}|${t.text}`,
      ),
      rehearsals: unique(
        same.flatMap((r) => r.rehearsals),
        (t) => `${t.at}|${t.text}`,
      ),
    };
  });
  numberMeasures(measures, warn);
  const named = partNodes.map((p) => names.get(attr(p, 'id')));
  const parts = partNodes.map((p, i) => named[i]?.name ?? attr(p, 'id') ?? 'Part');
  const partAlternates = named.map((n) => n?.alternates ?? []);
  return { title: title(root), composer: composer(root), parts, partAlternates, measures };
}

/**
 * A part's length of a measure, except that rests running past the time signature after its last
 * note (a slip in one voice: a quarter rest too many) do not lengthen the bar.
 * @param {{ length: number, soundingLength: number }} reading
 * @param {number} signature quarter notes per bar of the signature in force (0: none)
 */
function withinSignature(reading, signature) {
  const over = signature > 0 && reading.length > signature + 1e-6;
  return over && reading.soundingLength <= signature + 1e-6 ? signature : reading.length;
}

// The printed number of each measure: its number attribute, or the one before + 1 when that is
// not a number ("X1", used for measures that do not count).
function numberMeasures(measures, warn) {
  let previous = 0;
  let warned = false;
  measures.forEach((m, i) => {
    const parsed = /^\s*(\d+)/.exec(m.label);
    if (parsed) m.number = Math.min(99_999, Number(parsed[1]));
    else {
      m.number = i === 0 ? 1 : previous + 1;
      if (!warned) warn(m.label, `has no numeric measure number; printed as ${m.number}`);
      warned = true;
    }
    previous = m.number;
  });
}

function unique(list, key) {
  const seen = new Set();
  return list.filter((item) => (seen.has(key(item)) ? false : (seen.add(key(item)), true))).sort((a, b) => a.at - b.at);
}

function title(root) {
  return (
    textOf(first(root, 'work', 'work-title')) ||
    textOf(first(root, 'movement-title')) ||
    textOf(
      all(root, 'credit')
        .flatMap((c) => all(c, 'credit-words'))
        .find((w) => attr(w, 'justify') === 'center'),
    ) ||
    undefined
  );
}

function composer(root) {
  const creators = all(first(root, 'identification'), 'creator');
  const found = creators.find((c) => attr(c, 'type') === 'composer') ?? creators.find((c) => !attr(c, 'type'));
  return textOf(found) || undefined;
}
