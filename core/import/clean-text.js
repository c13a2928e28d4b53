// Text from an imported file is shown on the console, the part pages and the terminal: control
// characters have no place in a title, a part name or a rehearsal mark. MIDI names often end in
// NUL (C strings written whole), and a hostile file can carry terminal escapes (screen clear,
// OSC 52 clipboard write) that `tutti import` would otherwise print raw (issue 40, items 1, 12).
// Runtime-free.

// ESC sequences, whole: CSI (ESC [ … final), OSC/DCS/PM/APC strings (ESC ] … BEL or ESC \), and
// two-byte escapes; their 8-bit C1 forms (U+009B CSI, U+009D OSC …) likewise.
/* eslint-disable no-control-regex -- the point is to find them */
const SEQUENCES = [
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]/g,
  /(?:\u001b[\]P^_]|[\u009d\u0090\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?/g,
  /\u001b[ -/]*[0-~]/g,
];
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
/* eslint-enable no-control-regex */

/**
 * Text without control characters: ESC sequences removed whole, tabs and line breaks as spaces,
 * every other C0/C1 character (NUL, BEL, DEL …) dropped.
 * @param {string} text
 * @returns {string}
 */
export function cleanText(text) {
  let out = String(text);
  for (const sequence of SEQUENCES) out = out.replace(sequence, '');
  return out.replace(/[\t\n\r\v\f]/g, ' ').replace(CONTROLS, '');
}
