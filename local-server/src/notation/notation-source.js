// The notation file as the engraver sees it (docs/reference/notation.md#what-is-engraved): the
// bytes unpacked and parsed by the importer's own guarded readers (a zip bomb, a file that is not
// MusicXML, too many measures are refused there with one sentence), its parts with the ids a
// score gives them, its written measures in performance order exactly as `tutti import` counts
// them, and one part's MusicXML with every other part taken out (Verovio has no part filter).

import { ImportError } from '#core/import/import-error.js';
import { performanceOrder } from '#core/import/performance-order.js';
import { partsFromNames } from '#core/import/score-from-piece.js';
import { IMPORT_LIMITS } from '../import/import-file.js';
import { decodeText, readMxl } from '../import/mxl.js';
import { readMusicXml } from '../import/musicxml.js';

/**
 * @typedef {object} NotationSource
 * @property {string} text the MusicXML, its DOCTYPE taken out
 * @property {Array<{ xmlId: string, id: string, name: string }>} parts in file order; `id` as `tutti import` names the score's part
 * @property {number} written measures written (in the first part)
 * @property {Array<[number, number]>} order performance order: [written measure index, pass] per bar
 * @property {number[]} printed the printed number of each written measure
 */

const PART = /<part(?=[\s>])[^>]*>[\s\S]*?<\/part\s*>/g;
const SCORE_PART = /<score-part(?=[\s>])[^>]*>[\s\S]*?<\/score-part\s*>/g;
const PART_GROUP = /<part-group(?=[\s>/])[^>]*?(?:\/>|>[\s\S]*?<\/part-group\s*>)/g;
const ID = /\bid\s*=\s*(["'])(.*?)\1/;
const MULTI_REST = /<multiple-rest\b[^>]*(?:\/>|>[^<]*<\/multiple-rest\s*>)/g;

/**
 * Read a notation file's bytes.
 * @param {Uint8Array} bytes
 * @param {string} name the file's name (for messages; ".mxl" or a zip signature means compressed)
 * @returns {NotationSource}
 * @throws {ImportError} with one sentence for a file that cannot be read
 */
export function readNotationSource(bytes, name) {
  if (bytes.length > IMPORT_LIMITS.bytes)
    throw new ImportError(`${name} is larger than ${IMPORT_LIMITS.bytes / 1024 / 1024} MB, more than Tutti engraves`);
  const zipped = bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4;
  const raw = zipped || /\.mxl$/i.test(name) ? readMxl(bytes, { maxBytes: IMPORT_LIMITS.bytes, what: name }).text : decodeText(bytes);
  const text = withoutDoctype(raw, name);
  const piece = readMusicXml(text, { maxMeasures: IMPORT_LIMITS.measures, warn: () => {}, what: name });
  const xmlIds = [...text.matchAll(PART)].map((m) => ID.exec(m[0].slice(0, m[0].indexOf('>')))?.[2] ?? '');
  // With the same alternates as the import, so parts sharing a name ("StringInstrument") get the
  // same ids ("violins-1", "violins-2") as the score the import wrote.
  const ids = partsFromNames(piece.parts, () => {}, piece.partAlternates);
  const parts = ids.map((p, i) => ({ xmlId: xmlIds[i], id: p.id, name: p.name }));
  const order = performanceOrder(piece.measures, { maxBars: IMPORT_LIMITS.bars, warn: () => {} });
  return {
    text,
    parts,
    written: piece.measures.length,
    order: order.map((b) => [b.index, b.pass]),
    printed: piece.measures.map((m) => m.number),
  };
}

/**
 * The MusicXML of one part (its <score-part> and <part>, every other one and the part groups
 * taken out), or the whole file for "all". A part with two staves (a grand staff) is one
 * <part>, so it stays whole.
 * @param {NotationSource} source
 * @param {string} xmlId a <part id>, or "all"
 * @returns {string}
 */
export function partText(source, xmlId) {
  if (xmlId === 'all') return withoutMultiRests(source.text);
  if (!source.parts.some((p) => p.xmlId === xmlId)) throw new ImportError(`the notation has no part with id ${JSON.stringify(xmlId)}`);
  const keep = (block) => (ID.exec(block.slice(0, block.indexOf('>')))?.[2] === xmlId ? block : '');
  return withoutMultiRests(source.text.replace(SCORE_PART, keep).replace(PART, keep).replace(PART_GROUP, ''));
}

/**
 * Every measure drawn as its own (docs/reference/notation.md#what-is-engraved): Verovio draws a
 * multi-bar rest as one measure, and the cursor needs a place for each bar it counts.
 * @param {string} text
 * @returns {string}
 */
function withoutMultiRests(text) {
  return text.replace(MULTI_REST, '');
}

/**
 * The text without its DOCTYPE (Verovio needs none). A DOCTYPE that declares entities is refused:
 * MusicXML never needs them, and an expanding entity is how an XML file eats a machine.
 * @param {string} text
 * @param {string} name
 * @returns {string}
 */
function withoutDoctype(text, name) {
  const root = text.search(/<score-(?:partwise|timewise)[\s>]/);
  const prolog = root < 0 ? text : text.slice(0, root);
  if (/<!ENTITY/i.test(prolog)) throw new ImportError(`${name} declares XML entities (<!ENTITY>), which MusicXML never needs; refused`);
  return root < 0 ? text : prolog.replace(/<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>/i, '') + text.slice(root);
}
