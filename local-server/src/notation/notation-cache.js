// The engravings on disk (docs/reference/notation.md#the-cache): one folder per engraving, named by
// a hash of everything that decides it (the notation file's bytes, the part, the layout, the
// Verovio version and this engraver's format), in the server's state folder. A folder is written
// under a temporary name and renamed when complete, so a crash never leaves half an engraving that
// looks done. What could not be engraved is kept too (meta.json with `error`): never tried twice.

import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { constants, gzipSync } from 'node:zlib';

/** Bump when what is written changes (options, boxes, credit): old folders are then not used. */
export const ENGRAVE_FORMAT = 5;

/** The installed Verovio's version (its package.json), part of every cache key. */
export const VEROVIO_VERSION = (() => {
  try {
    const require = createRequire(import.meta.url);
    const main = require.resolve('verovio');
    return String(require(path.join(path.dirname(main), '..', 'package.json')).version);
  } catch {
    return 'unknown';
  }
})();

/**
 * @typedef {object} EngravingMeta
 * @property {number} format
 * @property {string} [error] why it could not be engraved (one sentence); nothing else then
 * @property {number} [pages]
 * @property {number} [width] the page's viewBox width (SVG user units)
 * @property {number} [height]
 * @property {Array<{ page: number, x: number, y: number, w: number, h: number }>} [boxes] per written measure
 * @property {string[]} [etags] per page
 */

/**
 * The cache key of one engraving.
 * @param {string} hash the notation file's sha256 (notation-file.js)
 * @param {string} xmlId a <part id>, or "all"
 * @param {string} layout
 * @returns {string}
 */
export function engravingKey(hash, xmlId, layout) {
  return createHash('sha256')
    .update(JSON.stringify([hash, xmlId, layout, VEROVIO_VERSION, ENGRAVE_FORMAT]))
    .digest('hex')
    .slice(0, 40);
}

/**
 * Write an engraving (or its failure) as the folder `key`, atomically. Called on the worker.
 * @param {string} dir the cache folder
 * @param {string} key
 * @param {{ pages?: string[], meta: Omit<EngravingMeta, 'format' | 'etags'> }} engraving
 * @returns {Promise<EngravingMeta>}
 */
export async function writeEngraving(dir, key, { pages = [], meta }) {
  const final = path.join(dir, key);
  const temp = path.join(dir, `${key}.tmp-${randomBytes(4).toString('hex')}`);
  await mkdir(temp, { recursive: true });
  const etags = [];
  for (let i = 0; i < pages.length; i += 1) {
    etags.push(`"${createHash('sha256').update(pages[i]).digest('base64url').slice(0, 22)}"`);
    await writeFile(path.join(temp, `${i + 1}.svg`), pages[i]);
    // Gzipped once here, on the worker's own low-priority thread (not libuv's pool, which runs at
    // normal priority): the show's thread sends these bytes as they are.
    await writeFile(path.join(temp, `${i + 1}.svg.gz`), gzipSync(pages[i], { level: constants.Z_BEST_COMPRESSION }));
  }
  /** @type {EngravingMeta} */
  const full = { format: ENGRAVE_FORMAT, ...meta, ...(meta.error ? {} : { etags }) };
  await writeFile(path.join(temp, 'meta.json'), JSON.stringify(full));
  try {
    await rename(temp, final);
  } catch {
    await rm(temp, { recursive: true, force: true }); // another writer finished first: its copy is the same
  }
  return full;
}

/**
 * The engraving's meta.json, or undefined when it is not (completely) on disk.
 * @param {string} dir
 * @param {string} key
 * @returns {Promise<EngravingMeta | undefined>}
 */
export async function readEngravingMeta(dir, key) {
  try {
    const meta = JSON.parse(await readFile(path.join(dir, key, 'meta.json'), 'utf8'));
    return meta && meta.format === ENGRAVE_FORMAT ? meta : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One page's SVG bytes, or the same gzipped.
 * @param {string} dir
 * @param {string} key
 * @param {number} page 1-based, already checked against the page count
 * @param {boolean} [gzipped]
 * @returns {Promise<Buffer>}
 */
export function readEngravingPage(dir, key, page, gzipped = false) {
  return readFile(path.join(dir, key, `${page}.svg${gzipped ? '.gz' : ''}`));
}

/** A font file's name is its hash (music-font.js): 22 base64url characters. */
export const FONT_HASH = /^[A-Za-z0-9_-]{22}$/;

/**
 * Keep the music font in the cache folder (once: the name is its hash). Called on the worker.
 * @param {string} dir
 * @param {{ hash: string, bytes: Uint8Array }} font
 */
export async function writeFont(dir, { hash, bytes }) {
  const final = path.join(dir, 'fonts', `${hash}.woff2`);
  const temp = `${final}.tmp-${randomBytes(4).toString('hex')}`;
  await mkdir(path.dirname(final), { recursive: true });
  await writeFile(temp, bytes);
  await rename(temp, final);
}

/**
 * The music font named by `hash`, or undefined when this cache has none by that name.
 * @param {string} dir
 * @param {string} hash
 * @returns {Promise<Buffer | undefined>}
 */
export async function readFont(dir, hash) {
  if (!FONT_HASH.test(hash)) return undefined;
  return readFile(path.join(dir, 'fonts', `${hash}.woff2`)).catch(() => undefined);
}
