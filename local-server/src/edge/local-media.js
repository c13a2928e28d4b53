// The current score's media files as the venue holds them (media-sync.js): path, size and
// sha256 per asset, read with the same checks as the venue's /media route (a link leaving the
// score's folder is not uploaded). Unchanged files (same path, size, mtime) are hashed once.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { MEDIA_READ_FLAGS, resolveMediaFile } from '../score/media-file.js';

/**
 * @typedef {{ src: string, file: string, size: number, sha256: string, bytes?: Uint8Array }} LocalMediaFile
 *   `bytes`: a file the venue made (MediaSource.generated), held in memory; `file` is then ''
 */

/** @param {unknown} err */
const messageOf = (err) => (err instanceof Error ? err.message : String(err));

/** @param {Uint8Array} bytes */
const sha256Of = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * A file's bytes and their sha256, read now.
 * @param {string} file
 * @returns {Promise<{ bytes: Buffer, sha256: string }>}
 */
export async function readMediaBytes(file) {
  const bytes = await readFile(file, { flag: MEDIA_READ_FLAGS });
  return { bytes, sha256: sha256Of(bytes) };
}

/**
 * @param {{ warn: (message: string) => void }} options
 * @returns {(media: import('./media-sync.js').MediaSource) => Promise<LocalMediaFile[]>}
 */
export function createLocalMedia({ warn }) {
  /** @type {Map<string, string>} `${file}:${size}:${mtime}` → sha256 */
  const hashes = new Map();

  return async function describeLocal(media) {
    const files = [];
    const seen = new Set();
    for (const asset of media.assets ?? []) {
      if (typeof asset?.src !== 'string' || seen.has(asset.src)) continue;
      seen.add(asset.src);
      try {
        const resolved = await resolveMediaFile(media.dir, asset.src);
        if (!resolved.ok) throw new Error(resolved.message);
        const { file, size, mtimeMs } = resolved;
        const key = `${file}:${size}:${mtimeMs}`;
        let sha256 = hashes.get(key);
        if (!sha256) {
          sha256 = (await readMediaBytes(file)).sha256;
          hashes.set(key, sha256);
        }
        files.push({ src: asset.src, file, size, sha256 });
      } catch (err) {
        warn(`cannot read ${asset.src} (${messageOf(err)}); the edge will not have it`);
      }
    }
    for (const made of media.generated ? await generatedFiles(media.generated, warn) : []) {
      if (seen.has(made.src)) continue;
      seen.add(made.src);
      files.push({ src: made.src, file: '', size: made.bytes.length, sha256: sha256Of(made.bytes), bytes: made.bytes });
    }
    return files;
  };
}

/**
 * The files the venue makes for the score; none (and one warning) when they cannot be made now.
 * @param {() => Promise<Array<{ src: string, bytes: Uint8Array }>>} generated
 * @param {(message: string) => void} warn
 */
async function generatedFiles(generated, warn) {
  try {
    return await generated();
  } catch (err) {
    warn(`cannot read the engraved pages (${messageOf(err)}); the edge will not have them yet`);
    return [];
  }
}
