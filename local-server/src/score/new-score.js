// `tutti new NAME`: a score skeleton that validates as written, with placeholder media that
// exist (a short generated bell and an SVG card) and a "$schema" that editors resolve wherever
// the file is saved: the absolute file URL of this installation's scores/score.schema.json
// (docs/tutorials/first-piece.md#start-a-new-score).

import { existsSync } from 'node:fs';
import { createFile } from '../files/safe-write.js';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { renderWav } from '../../../scores/tools/generate-media.js';

export const SCHEMA_FILE = fileURLToPath(new URL('../../../scores/score.schema.json', import.meta.url));

/** The score id for a name: lowercase letters, digits and dashes (the format's id rule). */
export function scoreIdOf(name) {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}

/** A 0.4 s bell at 880 Hz, 11 025 Hz mono: a placeholder cue that is audible and tiny (≈ 9 KB). */
function placeholderBell() {
  return renderWav(11_025, 0.4, (t) => Math.sin(2 * Math.PI * 880 * t) * Math.exp(-t * 9) * 0.6);
}

const placeholderCard = (title) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300"><rect width="400" height="300" fill="#1a1a2e"/><text x="200" y="160" fill="#f2c14e" font-family="sans-serif" font-size="28" text-anchor="middle">${title.replace(/[<&>"]/g, '')}</text></svg>\n`;

/**
 * The skeleton score, as an object ready for JSON.
 * @param {{ id: string, title: string }} names
 */
function skeleton({ id, title }) {
  return {
    $schema: pathToFileURL(SCHEMA_FILE).href,
    format: 'tutti-score/1',
    id,
    title,
    composer: 'Your name',
    bars: 32,
    meter: [{ bar: 1, beats: 4, unit: 4 }],
    tempo: [{ at: { bar: 1 }, bpm: 90 }],
    sections: [
      { at: { bar: 1 }, mark: 'A', name: 'Opening' },
      { at: { bar: 17 }, mark: 'B', name: 'Second part' },
    ],
    assets: [
      { id: 'bell', kind: 'audio', src: `media/${id}/bell.wav` },
      { id: 'card', kind: 'image', src: `media/${id}/card.svg` },
    ],
    view: { text: title, instruction: 'Keep this page open: your phone is part of the piece.', color: '#101820' },
    cues: [
      { at: { bar: 1 }, label: 'A', view: { text: 'Opening', instruction: 'Screens towards the stage.', color: '#1a1a2e' } },
      { at: { bar: 1 }, osc: { address: '/section', args: ['A', 1] } },
      { at: { bar: 17 }, label: 'B', audio: { asset: 'bell', gain: 0.8 } },
      { at: { bar: 17 }, view: { text: 'Second part', image: 'card' } },
      { at: { bar: 32, beat: 4 }, view: { text: 'Thank you', instruction: '' } },
    ],
  };
}

/**
 * Write `NAME.score.json` and its placeholder media (media/<id>/…) next to it. Never overwrites.
 * @param {string} name the score's name, optionally with a folder (`shows/first-light`)
 * @param {{ cwd?: string }} [options]
 * @returns {Promise<{ scoreFile: string, mediaFiles: string[], id: string }>}
 */
export async function writeNewScore(name, { cwd = process.cwd() } = {}) {
  const target = path.resolve(cwd, name.replace(/\.score\.json$/i, ''));
  const base = path.basename(target);
  const id = scoreIdOf(base);
  if (!id) throw new Error(`"${name}" has no letters or digits to make a score id from`);
  const dir = path.dirname(target);
  const scoreFile = path.join(dir, `${base}.score.json`);
  const score = skeleton({ id, title: base });
  /** @type {Array<[string, string | Buffer]>} */
  const files = [
    [scoreFile, `${JSON.stringify(score, null, 2)}\n`],
    [path.join(dir, 'media', id, 'bell.wav'), placeholderBell()],
    [path.join(dir, 'media', id, 'card.svg'), placeholderCard(base)],
  ];
  // Nothing is replaced: a score or media of the same name stops it before anything is written.
  const taken = files.map(([file]) => file).find((file) => existsSync(file));
  if (taken) throw new Error(`${taken} already exists; choose another name or move it away (nothing was written)`);
  const written = [];
  for (const [file, content] of files) {
    // Never through a link, nor into a linked media folder (files/safe-write.js).
    await createFile(file, content, { root: dir });
    written.push(file);
  }
  return { scoreFile, mediaFiles: written.slice(1), id };
}
