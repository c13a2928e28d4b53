// An image or sound the composer drops into the editor (docs/reference/score-editing-api.md#media):
// its type is read from its first bytes (never from its name), its name is checked and kept
// inside the score's media folder, and it is created there without replacing anything
// (files/safe-write.js: no link followed, no linked folder on the way). The answer is the asset
// entry to add to the score. SVG is refused: it can carry script, and a dropped file comes from
// anywhere.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createFile } from '../files/safe-write.js';

/** The largest upload: the edge's default limit per media file, so every upload can be mirrored. */
export const MEDIA_UPLOAD_MAX_BYTES = 25 * 1024 * 1024;

/** An upload refused: `code` is a catalogued venue error. */
export class MediaUploadError extends Error {
  /** @param {{ code: 'BAD_MEDIA_NAME' | 'BAD_MEDIA_TYPE' | 'MEDIA_TOO_BIG' | 'SYMLINK_REFUSED', message: string }} refusal */
  constructor({ code, message }) {
    super(message);
    this.code = code;
  }
}

const ascii = (bytes, from, to) => bytes.subarray(from, to).toString('latin1');

/** The types a score plays (core/score/validate-media.js), each told by its first bytes. */
const TYPES = [
  { kind: 'image', exts: ['.png'], test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { kind: 'image', exts: ['.jpg', '.jpeg'], test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { kind: 'image', exts: ['.gif'], test: (b) => /^GIF8[79]a$/.test(ascii(b, 0, 6)) },
  { kind: 'image', exts: ['.webp'], test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
  { kind: 'audio', exts: ['.wav'], test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WAVE' },
  { kind: 'audio', exts: ['.ogg', '.oga', '.opus'], test: (b) => ascii(b, 0, 4) === 'OggS' },
  { kind: 'audio', exts: ['.flac'], test: (b) => ascii(b, 0, 4) === 'fLaC' },
  // An ID3 tag, or an MPEG audio frame sync (11 bits set, layer bits not 00).
  {
    kind: 'audio',
    exts: ['.mp3'],
    test: (b) => ascii(b, 0, 3) === 'ID3' || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0 && (b[1] & 0x06) !== 0),
  },
  {
    kind: 'audio',
    exts: ['.m4a', '.aac'],
    test: (b) => ascii(b, 4, 8) === 'ftyp' && /^(M4A |M4B |mp42|isom|iso2|dash)$/.test(ascii(b, 8, 12)),
  },
];

/**
 * Check an upload's name: a plain file name (no folder, no "..", no control characters, no
 * backslash), 1 to 100 characters of letters, digits, ".", "-", "_" and spaces, with an extension.
 * @param {unknown} name
 * @returns {string} the name to store (spaces become "-")
 * @throws {MediaUploadError} BAD_MEDIA_NAME
 */
export function checkMediaName(name) {
  const bad = (why) => new MediaUploadError({ code: 'BAD_MEDIA_NAME', message: `the media name ${JSON.stringify(name)} ${why}` });
  if (typeof name !== 'string' || name === '') throw bad('is missing: give ?name=bell.wav');
  if ([...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw bad('holds a control character');
  if (/[/\\]/.test(name) || path.isAbsolute(name)) throw bad('is a path; give a plain file name such as bell.wav');
  if (name.startsWith('.')) throw bad('starts with "."; give a plain file name such as bell.wav');
  if (name.length > 100 || !/^[\w. -]+\.[A-Za-z0-9]+$/.test(name)) {
    throw bad('must be 1 to 100 letters, digits, ".", "-", "_" or spaces, with an extension');
  }
  return name.replace(/ +/g, '-');
}

/**
 * The kind of `bytes` when `name`'s extension agrees with them.
 * @param {Buffer} bytes
 * @param {string} name
 * @returns {'image' | 'audio'}
 * @throws {MediaUploadError} BAD_MEDIA_TYPE
 */
export function mediaKind(bytes, name) {
  const ext = path.extname(name).toLowerCase();
  if (ext === '.svg' || /^\s*(<\?xml|<svg|<!DOCTYPE svg)/i.test(ascii(bytes, 0, 256))) {
    throw new MediaUploadError({
      code: 'BAD_MEDIA_TYPE',
      message: 'SVG is not accepted here: it can carry script; export it as PNG or WebP',
    });
  }
  const type = TYPES.find((t) => t.test(bytes));
  if (!type) {
    throw new MediaUploadError({
      code: 'BAD_MEDIA_TYPE',
      message: `${name} is not a PNG, JPEG, GIF or WebP image nor a WAV, MP3, Ogg, FLAC or M4A sound`,
    });
  }
  if (!type.exts.includes(ext)) {
    throw new MediaUploadError({
      code: 'BAD_MEDIA_TYPE',
      message: `${name} holds ${type.exts[0].slice(1).toUpperCase()} data; name it ${type.exts[0]}`,
    });
  }
  return /** @type {'image' | 'audio'} */ (type.kind);
}

/** An asset id from a file name, unique among `taken` (the format's id rule). */
function assetId(name, taken) {
  const stem =
    path
      .basename(name, path.extname(name))
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^[-_]+/, '')
      .slice(0, 56) || 'media';
  for (let n = 1; n < 1000; n += 1) {
    const id = n === 1 ? stem : `${stem}-${n}`;
    if (!taken.has(id)) return id;
  }
  return `${stem}-${Date.now()}`;
}

/**
 * Store `bytes` as `name` in `<score folder>/media/<score id>/`, never replacing a file: a name
 * taken by other bytes gets "-2", "-3"… (the same bytes answer the file already there).
 * @param {{ dir: string, scoreId: string, assets: Array<{ id: string }>, name: unknown, bytes: Buffer, maxBytes?: number }} upload
 * @returns {Promise<{ id: string, kind: 'image' | 'audio', src: string, bytes: number }>} the asset entry to add
 * @throws {MediaUploadError}
 */
export async function storeMedia({ dir, scoreId, assets, name, bytes, maxBytes = MEDIA_UPLOAD_MAX_BYTES }) {
  const clean = checkMediaName(name);
  if (bytes.length > maxBytes)
    throw new MediaUploadError({ code: 'MEDIA_TOO_BIG', message: `the file is larger than the ${maxBytes}-byte limit per media file` });
  if (bytes.length === 0) throw new MediaUploadError({ code: 'BAD_MEDIA_TYPE', message: 'the file is empty' });
  const kind = mediaKind(bytes, clean);
  const folder = path.join('media', scoreId);
  const ext = path.extname(clean);
  const stem = path.basename(clean, ext);
  for (let n = 1; n <= 99; n += 1) {
    const fileName = n === 1 ? clean : `${stem}-${n}${ext}`;
    const file = path.join(dir, folder, fileName);
    try {
      await createFile(file, bytes, { root: dir });
    } catch (error) {
      const code = /** @type {any} */ (error).code;
      if (code === 'SYMLINK_REFUSED')
        throw new MediaUploadError({ code: 'SYMLINK_REFUSED', message: /** @type {Error} */ (error).message });
      if (code !== 'EEXIST') throw error;
      const same = await readFile(file).then(
        (old) => old.equals(bytes),
        () => false,
      );
      if (!same) continue;
    }
    const src = `media/${scoreId}/${fileName}`;
    const known = assets.find((a) => /** @type {any} */ (a).src === src);
    return { id: known?.id ?? assetId(fileName, new Set(assets.map((a) => a.id))), kind, src, bytes: bytes.length };
  }
  throw new MediaUploadError({
    code: 'BAD_MEDIA_NAME',
    message: `media/${scoreId}/ already holds 99 files named like ${clean}; choose another name`,
  });
}
