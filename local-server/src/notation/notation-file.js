// Reading the score's notation file for the engraver (docs/reference/notation.md#the-cache): the
// same checks as a media file (a regular file inside the score's folder, links followed), a size
// limit before a byte is read, and the bytes hashed while they stream in, so a large file never
// holds up the show's thread. The bytes go to the worker in shared memory (no copy per job).

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { ImportError } from '#core/import/import-error.js';
import { IMPORT_LIMITS } from '../import/import-file.js';
import { MEDIA_READ_FLAGS, resolveMediaFile } from '../score/media-file.js';

/**
 * Read the notation file named by a score.
 * @param {string} dir the score's folder
 * @param {string} src the score's `notation`
 * @param {{ maxBytes?: number }} [options]
 * @returns {Promise<{ bytes: Uint8Array, hash: string }>} `bytes` on a SharedArrayBuffer
 * @throws {ImportError} with one sentence when it cannot be read
 */
export async function readNotationFile(dir, src, { maxBytes = IMPORT_LIMITS.bytes } = {}) {
  const resolved = await resolveMediaFile(dir, src);
  if (!resolved.ok) throw new ImportError(/** @type {string} */ (resolved.message));
  const size = /** @type {number} */ (resolved.size);
  if (size > maxBytes)
    throw new ImportError(
      `${src} is ${(size / 1024 / 1024).toFixed(1)} MB; Tutti engraves notation files up to ${maxBytes / 1024 / 1024} MB`,
    );
  if (size === 0) throw new ImportError(`${src} is empty`);
  const bytes = new Uint8Array(new SharedArrayBuffer(size));
  const hash = createHash('sha256');
  let at = 0;
  try {
    for await (const chunk of createReadStream(/** @type {string} */ (resolved.file), { flags: MEDIA_READ_FLAGS })) {
      if (at + chunk.length > size) throw new ImportError(`${src} grew while it was read; try again`);
      bytes.set(chunk, at);
      hash.update(chunk);
      at += chunk.length;
    }
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(`cannot read ${src}: ${/** @type {Error} */ (error).message}`);
  }
  if (at !== size) throw new ImportError(`${src} changed while it was read; try again`);
  return { bytes, hash: hash.digest('hex') };
}
