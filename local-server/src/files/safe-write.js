// Every file the server writes goes through here (docs/reference/score-editing-api.md#safe-writes):
// a score folder or state folder can hold a symbolic link planted by whoever sent it (zip, tar and
// git keep links), so a write must never follow one to a file elsewhere. The target is refused
// when it is a link (lstat), a new file is created with O_EXCL|O_NOFOLLOW, and a replacement is
// written to a fresh temp file in the same folder (O_EXCL|O_NOFOLLOW), fsynced, then renamed over
// the target: rename replaces a name, never what a link points to, and readers see the old or the
// new bytes, never half.

import * as fsPromises from 'node:fs/promises';
import { closeSync, constants, fsyncSync, lstatSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

// Windows has no O_NOFOLLOW; the lstat check still refuses a link there.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** Create a new file, failing if the name exists (a dangling link included) or is a link. */
export const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;
/** Append to a file, creating it if absent, failing if the name is a link. */
export const APPEND_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | NOFOLLOW;
const READ_FLAGS = constants.O_RDONLY | NOFOLLOW;

/** Thrown when a path to write is a symbolic link: `code` is SYMLINK_REFUSED. */
export class SymlinkRefusedError extends Error {
  /** @param {string} file the link's path */
  constructor(file) {
    super(`${file} is a symbolic link; Tutti never writes through a link (remove it, or choose another path)`);
    this.name = 'SymlinkRefusedError';
    this.code = 'SYMLINK_REFUSED';
    this.path = file;
  }
}

/**
 * @typedef {Pick<typeof fsPromises, 'open' | 'rename' | 'mkdir' | 'lstat' | 'unlink'>} WriteFs
 *   the file system (tests record the calls)
 * @typedef {{ mode?: number, root?: string, mkdir?: boolean, fs?: WriteFs }} WriteOptions
 *   `mode`: permissions of a new file (default 0o644); `root`: a folder every component between
 *   it and the file must not be a link in (a score's folder for its media); `mkdir`: create the
 *   file's folder when missing (default true; false makes a missing folder ENOENT)
 */

/**
 * Refuse `file` when it is a symbolic link (dangling or not); an absent file is fine.
 * @param {string} file
 * @param {WriteFs} [fs]
 * @returns {Promise<boolean>} whether the file exists
 * @throws {SymlinkRefusedError}
 */
export async function refuseSymlink(file, fs = fsPromises) {
  try {
    const stat = await fs.lstat(file);
    if (stat.isSymbolicLink()) throw new SymlinkRefusedError(file);
    return true;
  } catch (error) {
    if (/** @type {any} */ (error).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Refuse a link anywhere from `root` (exclusive) down to `file`'s folder (inclusive), so a linked
 * media folder cannot carry a write outside the score's folder.
 * @param {string} root
 * @param {string} file
 * @param {WriteFs} [fs]
 */
export async function refuseLinkedFolders(root, file, fs = fsPromises) {
  const rel = path.relative(root, path.dirname(file));
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`${file} is outside ${root}`);
  let at = root;
  for (const part of rel.split(path.sep).filter(Boolean)) {
    at = path.join(at, part);
    await refuseSymlink(at, fs);
  }
}

/**
 * fsync a folder so a rename in it survives a power cut (Windows cannot open a folder: skipped).
 * @param {string} dir
 * @param {Pick<WriteFs, 'open'>} [fs]
 */
export async function syncFolder(dir, fs = fsPromises) {
  let handle;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows: the rename is still atomic.
  } finally {
    await handle?.close();
  }
}

/** Write and fsync `data` into a file that must not exist yet. */
async function writeNew(file, data, mode, fs) {
  const handle = await fs.open(file, CREATE_FLAGS, mode).catch((error) => {
    // A link planted between the check and the open: O_NOFOLLOW answers ELOOP.
    throw error.code === 'ELOOP' ? new SymlinkRefusedError(file) : error;
  });
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Read a file that must not be a link (a record's chunk, a score before its backup).
 * @param {string} file
 * @param {Pick<WriteFs, 'open'>} [fs]
 * @returns {Promise<Buffer>}
 * @throws {SymlinkRefusedError}
 */
export async function readFileNoFollow(file, fs = fsPromises) {
  const handle = await fs.open(file, READ_FLAGS).catch((error) => {
    throw error.code === 'ELOOP' ? new SymlinkRefusedError(file) : error;
  });
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Create `file` with `data`; fails with EEXIST when the name exists, link or not.
 * @param {string} file
 * @param {string | Uint8Array} data
 * @param {WriteOptions} [options]
 */
export async function createFile(file, data, { mode = 0o644, root, mkdir = true, fs = fsPromises } = {}) {
  if (root) await refuseLinkedFolders(root, file, fs);
  await refuseSymlink(file, fs);
  if (mkdir) await fs.mkdir(path.dirname(file), { recursive: true });
  await writeNew(file, data, mode, fs);
  await syncFolder(path.dirname(file), fs);
}

/**
 * Replace (or create) `file` with `data` atomically: a fresh temp file beside it, fsync, rename.
 * With `backup`, the previous bytes are first kept as `backup` (written the same safe way).
 * @param {string} file
 * @param {string | Uint8Array} data
 * @param {WriteOptions & { backup?: string }} [options]
 * @throws {SymlinkRefusedError} when `file` or `backup` is a link (nothing is written)
 */
export async function replaceFile(file, data, { mode = 0o644, root, backup, mkdir = true, fs = fsPromises } = {}) {
  if (root) await refuseLinkedFolders(root, file, fs);
  const existed = await refuseSymlink(file, fs);
  if (backup) await refuseSymlink(backup, fs);
  const dir = path.dirname(file);
  if (mkdir) await fs.mkdir(dir, { recursive: true });
  if (backup && existed) await replaceFile(backup, await readFileNoFollow(file, fs), { mode, fs });
  // A random name: a temp file left by a crash (or planted) never blocks nor receives this write.
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeNew(tmp, data, mode, fs);
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.unlink(tmp).catch(() => {});
    throw error;
  }
  await syncFolder(dir, fs);
}

/**
 * Open `file` for appending (created if absent), synchronously, refusing a link: for logs and
 * record chunks, which are appended to line by line.
 * @param {string} file
 * @param {number} [mode] permissions of a new file
 * @returns {number} the file descriptor
 * @throws {SymlinkRefusedError}
 */
export function openForAppendSync(file, mode = 0o600) {
  try {
    if (lstatSync(file).isSymbolicLink()) throw new SymlinkRefusedError(file);
  } catch (error) {
    if (/** @type {any} */ (error).code !== 'ENOENT') throw error;
  }
  try {
    return openSync(file, APPEND_FLAGS, mode);
  } catch (error) {
    throw /** @type {any} */ (error).code === 'ELOOP' ? new SymlinkRefusedError(file) : error;
  }
}

/**
 * replaceFile for synchronous callers (the desktop app's settings): refuse a link, write a fresh
 * temp file beside it (O_EXCL|O_NOFOLLOW), fsync, rename over the target.
 * @param {string} file
 * @param {string | Uint8Array} data
 * @param {{ mode?: number }} [options]
 * @throws {SymlinkRefusedError}
 */
export function replaceFileSync(file, data, { mode = 0o644 } = {}) {
  try {
    if (lstatSync(file).isSymbolicLink()) throw new SymlinkRefusedError(file);
  } catch (error) {
    if (/** @type {any} */ (error).code !== 'ENOENT') throw error;
  }
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, CREATE_FLAGS, mode);
  try {
    writeFileSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (error) {
    unlinkSync(tmp);
    throw error;
  }
}
