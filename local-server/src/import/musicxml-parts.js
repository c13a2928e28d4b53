// A MusicXML part's name, from its <score-part>. MuseScore 1 (music21's corpus holds its files)
// writes an empty <part-name>, so the parts came in as "P1", "P2": the name falls back to the
// abbreviation, then the instrument's name, then the General MIDI program the file plays it with
// (issue 40, item 2). The names the file shows besides (<part-name-display>, its instruments')
// are kept as alternates: where two parts share a name, one of those may tell them apart
// ("Violin I", "Violin II"), see core/import/score-from-piece.js.

import { generalMidiName } from './gm-programs.js';
import { all, attr, first, textOf } from './xml-tree.js';

/** MIDI channel 10 is the drum kit by General MIDI. */
const PERCUSSION_CHANNEL = 10;

/**
 * The name of each <score-part> and the other names the file gives it.
 * @param {import('./xml-tree.js').XmlNode[]} scoreParts the part-list's <score-part> nodes
 * @returns {Map<string | undefined, { name: string, alternates: string[] }>} by part id
 */
export function readPartNames(scoreParts) {
  return new Map(scoreParts.map((p) => [attr(p, 'id'), { name: partName(p), alternates: alternates(p) }]));
}

/**
 * @param {import('./xml-tree.js').XmlNode} part a <score-part>
 * @returns {string}
 */
function partName(part) {
  const instrument = all(part, 'score-instrument')
    .map((i) => textOf(first(i, 'instrument-name')))
    .find(Boolean);
  return (
    textOf(first(part, 'part-name')) || textOf(first(part, 'part-abbreviation')) || instrument || midiName(part) || attr(part, 'id') || ''
  );
}

/**
 * The General MIDI instrument of a part's first <midi-instrument>.
 * @param {import('./xml-tree.js').XmlNode} part
 * @returns {string | undefined}
 */
function midiName(part) {
  const midi = first(part, 'midi-instrument');
  if (Number(textOf(first(midi, 'midi-channel'))) === PERCUSSION_CHANNEL) return 'Percussion';
  const program = textOf(first(midi, 'midi-program'));
  return program ? generalMidiName(Number(program) - 1) : undefined;
}

/**
 * The part's name as displayed, and its instruments' names.
 * @param {import('./xml-tree.js').XmlNode} part
 * @returns {string[]}
 */
function alternates(part) {
  const display = all(first(part, 'part-name-display'), 'display-text').map(textOf).join('').trim();
  const instruments = all(part, 'score-instrument').map((i) => textOf(first(i, 'instrument-name')));
  return [display, ...instruments].filter(Boolean);
}
