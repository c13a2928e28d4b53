// The imported score: a piece's metadata and parts plus its time map (time-map.js), as a
// "tutti-score/1" score with no cues (docs/tutorials/first-piece.md#import-your-piece). Runtime-free.

import { cleanText } from './clean-text.js';
import { buildTimeMap } from './time-map.js';

const MAX_PARTS = 64;
const NAME_CHARS = 200;

/**
 * @typedef {object} ImportWarning
 * @property {string} measure the written measure it concerns (its printed number), or "bar N"
 * @property {string} message
 */

/**
 * Build the score of a piece read from a notation file.
 * @param {{ title?: string, composer?: string, parts: string[], partAlternates?: string[][], measures: import('./time-map.js').SourceMeasure[] }} piece
 * @param {{ name: string, maxBars: number, warnings?: ImportWarning[] }} options `name`: the file's base name (title and id when the file has none)
 * @returns {{ score: Record<string, any>, timeMap: import('./time-map.js').TimeMap, warnings: ImportWarning[] }}
 */
export function scoreFromPiece(piece, { name, maxBars, warnings = [] }) {
  // Warnings quote the file: no control character of it reaches a terminal (clean-text.js).
  const warn = (measure, message) => warnings.push({ measure: cleanText(measure), message: cleanText(message) });
  const timeMap = buildTimeMap(piece.measures, { maxBars, warn });
  const title = clip(piece.title) ?? clip(name) ?? 'Imported piece';
  /** @type {Record<string, any>} */
  const score = { format: 'tutti-score/1', id: slug(title, 64) || slug(name, 64) || 'imported', title };
  const composer = clip(piece.composer);
  if (composer) score.composer = composer;
  score.bars = timeMap.bars;
  score.meter = timeMap.meter;
  score.tempo = timeMap.tempo;
  if (timeMap.sections.length) score.sections = timeMap.sections;
  // Printed numbers only when they say something the running count does not.
  const informative = timeMap.printedBars.length > 1 || timeMap.printedBars[0]?.number !== 1;
  if (informative) score.printedBars = timeMap.printedBars;
  const parts = partsFromNames(piece.parts, warn, piece.partAlternates);
  if (parts.length) score.parts = parts;
  score.view = {};
  score.cues = [];
  return { score, timeMap, warnings };
}

/**
 * Parts with ids and OSC prefixes made from their names ("Violin 1" → id "violin-1", osc
 * "/violin-1"), unique, at most 64. Parts sharing a name are told apart (distinctNames).
 * @param {string[]} names
 * @param {(measure: string, message: string) => void} warn
 * @param {string[][]} [alternates] other names the file gives each part
 * @returns {Array<{ id: string, name: string, osc: string }>}
 */
export function partsFromNames(names, warn, alternates = []) {
  const distinct = distinctNames(
    names.map((raw, i) => clip(raw) ?? `Part ${i + 1}`),
    alternates.map((list) => (list ?? []).map(clip).filter((n) => n !== undefined)),
    warn,
  );
  const used = new Set();
  const out = [];
  distinct.forEach((name, i) => {
    if (out.length >= MAX_PARTS) {
      if (out.length === MAX_PARTS && i === MAX_PARTS)
        warn('(parts)', `the file has ${names.length} parts; a score holds ${MAX_PARTS}, the rest are left out`);
      return;
    }
    const base = slug(name, 56) || `part-${i + 1}`;
    let id = base;
    for (let n = 2; used.has(id); n += 1) id = `${base}-${n}`;
    used.add(id);
    out.push({ id, name, osc: `/${id}` });
  });
  return out;
}

/**
 * Two parts called "Violin" cannot be told apart in the part picker or the console's tablets
 * (issue 40, item 3). Each group sharing a name takes the file's own distinction where every
 * member has one no other part has ("Violin I", "Violin II"), else is numbered in score order
 * ("Violin 1", "Violin 2"); a warning says so.
 * @param {string[]} names
 * @param {string[][]} alternates
 * @param {(measure: string, message: string) => void} warn
 * @returns {string[]}
 */
function distinctNames(names, alternates, warn) {
  /** @type {Map<string, number[]>} */
  const groups = new Map();
  names.forEach((name, i) => groups.set(name, [...(groups.get(name) ?? []), i]));
  const taken = new Set(names);
  const out = [...names];
  for (const [name, members] of groups) {
    if (members.length < 2) continue;
    const holders = (alt) => members.filter((j) => alternates[j]?.includes(alt)).length;
    const own = members.map((i) => alternates[i]?.find((alt) => !taken.has(alt) && holders(alt) === 1));
    const useOwn = own.every(Boolean) && new Set(own).size === members.length;
    members.forEach((i, k) => {
      // "String Ensemble 1" (a General MIDI name) numbers as "String Ensemble 1 (2)".
      out[i] = useOwn ? /** @type {string} */ (own[k]) : /\d$/.test(name) ? `${name} (${k + 1})` : `${name} ${k + 1}`;
    });
    warn('(parts)', `${members.length} parts are called ${name}: named ${members.map((i) => out[i]).join(', ')} to tell them apart`);
  }
  return out;
}

/**
 * Lowercase ASCII letters, digits and dashes from a name ("Flûte à bec" → "flute-a-bec").
 * @param {string | undefined} text
 * @param {number} max
 * @returns {string}
 */
export function slug(text, max) {
  return String(text ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
}

function clip(text) {
  const t = cleanText(String(text ?? ''))
    .replace(/\s+/g, ' ')
    .trim();
  return t ? [...t].slice(0, NAME_CHARS).join('') : undefined;
}
