// MIDI text events carry bytes with no declared encoding. midi-file reads them one byte per
// character (Latin-1); MuseScore and most current tools write UTF-8, so "B♭ Clarinet" came in
// as "Bâ\x99\xad Clarinet". The bytes are read as UTF-8 when they are valid UTF-8, else as
// Latin-1 in its Windows form (windows-1252, what the WHATWG decoder means by "latin1": bytes
// 0x80–0x9F are ’ … € rather than control characters), and control characters are dropped
// (issue 40, item 1).

import { cleanText } from '#core/import/clean-text.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const windows1252 = new TextDecoder('windows-1252');

/**
 * A text event's string as midi-file gives it (one char per byte) → the text it encodes.
 * @param {string} latin1 characters U+0000–U+00FF, one per byte
 * @returns {string}
 */
export function decodeMidiText(latin1) {
  const text = String(latin1 ?? '');
  // Plain ASCII reads the same either way.
  // eslint-disable-next-line no-control-regex -- ASCII range
  if (/^[\u0000-\u007f]*$/.test(text)) return cleanText(text);
  const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
  let decoded;
  try {
    decoded = utf8.decode(bytes);
  } catch {
    decoded = windows1252.decode(bytes); // not UTF-8
  }
  return cleanText(decoded);
}

/**
 * Decode every text-bearing meta event of parsed tracks in place (track and instrument names,
 * markers, text, copyright, lyrics, cue points).
 * @param {Array<Array<Record<string, any>>>} tracks midi-file's tracks
 * @returns {void}
 */
export function decodeTrackTexts(tracks) {
  for (const track of tracks) for (const event of track) if (typeof event.text === 'string') event.text = decodeMidiText(event.text);
}
