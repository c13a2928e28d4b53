// The music font of the text on a page (docs/reference/notation.md#the-music-font). Tempo marks
// and other text draw SMuFL glyphs (a note in "♩ = 100") with Verovio's font, which it would
// embed in every such page (43 KB gzipped, more than the music). Pages are engraved without it
// and say where it is instead: one file per font, named by its hash, served once by the venue
// (GET …/notation/font/<hash>.woff2) and kept by the tablet; the part page puts it back into
// the page before showing it (an <img> loads nothing itself). Runs on the engraver's worker.

import { createHash } from 'node:crypto';

/** A one-bar part with a metronome mark: Verovio embeds its text font when it draws one. */
const WITH_METRONOME = `<?xml version="1.0"?><score-partwise version="3.1"><part-list><score-part id="P1"><part-name>x</part-name></score-part></part-list>
<part id="P1"><measure number="1"><attributes><divisions>1</divisions><time><beats>1</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes>
<direction placement="above"><direction-type><metronome><beat-unit>quarter</beat-unit><per-minute>100</per-minute></metronome></direction-type></direction>
<note><pitch><step>C</step><octave>5</octave></pitch><duration>1</duration><type>quarter</type></note></measure></part></score-partwise>`;

const FACE = /@font-face\s*\{\s*font-family:\s*'([^']+)';\s*src:\s*url\(data:[^;,]+(?:;[^;,]+)*;base64,([A-Za-z0-9+/=]+)\)/;

/**
 * @typedef {{ family: string, hash: string, bytes: Buffer }} MusicFont
 */

/**
 * The font Verovio would embed, taken once from a page it draws with it.
 * @param {any} toolkit a VerovioToolkit (its options are changed; set them again after)
 * @returns {MusicFont | null} null when this Verovio embeds no font the way it did (6.3)
 */
export function extractMusicFont(toolkit) {
  toolkit.setOptions({ smuflTextFont: 'embedded', svgFormatRaw: true });
  if (!toolkit.loadData(WITH_METRONOME)) return null;
  const face = FACE.exec(toolkit.renderToSVG(1));
  if (!face) return null;
  const bytes = Buffer.from(face[2], 'base64');
  return { family: face[1], hash: createHash('sha256').update(bytes).digest('base64url').slice(0, 22), bytes };
}

/** A page's reference to the font (linkMusicFont), with the font's hash. */
const FONT_URL = /url\(\.\.\/font\/([A-Za-z0-9_-]{22})\.woff2\)/;

/**
 * The page with the font it names put into it (a data: URL), for pages served where no font
 * route is (the audience's media, the edge): the few with a metronome mark are bigger, as before.
 * @param {Buffer} page
 * @param {(hash: string) => Promise<Buffer | undefined>} readFont
 * @returns {Promise<Buffer>} the page itself when it names no font, or the font is not there
 */
export async function inlineMusicFont(page, readFont) {
  const text = page.toString('utf8');
  const named = FONT_URL.exec(text);
  const font = named ? await readFont(named[1]) : undefined;
  if (!named || !font) return page;
  return Buffer.from(text.replace(named[0], `url(data:font/woff2;base64,${font.toString('base64')})`));
}

/** Where a page finds the font: relative to …/notation/<part>/<n>.svg. */
export const fontPath = (hash) => `../font/${hash}.woff2`;

/**
 * The page with a style that names the font by its URL, when its text uses the font.
 * @param {string} svg
 * @param {MusicFont | null} font
 * @returns {string}
 */
export function linkMusicFont(svg, font) {
  if (!font || !svg.includes(`font-family="${font.family}"`)) return svg;
  const style = `<style>@font-face{font-family:'${font.family}';src:url(${fontPath(font.hash)}) format('woff2')}</style>`;
  const open = svg.indexOf('>', svg.indexOf('<svg')) + 1;
  return `${svg.slice(0, open)}${style}${svg.slice(open)}`;
}
