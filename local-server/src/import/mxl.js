// Compressed MusicXML (.mxl): a zip archive whose META-INF/container.xml names the score file
// (its first <rootfile full-path>). Unzipping is fflate's. An entry's size as the archive
// declares it is checked first, and the entry is then inflated as a stream, counting bytes, so
// an entry that lies about its size (a zip bomb declaring 1,000 bytes) is stopped at what it
// declared instead of being unpacked.

import { Unzip, UnzipInflate, unzipSync } from 'fflate';
import { ImportError } from '#core/import/import-error.js';
import { all, attr, first, parseXml } from './xml-tree.js';

// Compressed bytes pushed at a time: deflate expands at most ~1,032:1, so one push inflates to
// at most ~1 MB before the count is checked again.
const CHUNK = 1024;

/**
 * The MusicXML text inside an .mxl archive.
 * @param {Uint8Array} bytes
 * @param {{ maxBytes: number, what?: string }} options
 * @returns {{ text: string, path: string }}
 */
export function readMxl(bytes, { maxBytes, what = 'the file' }) {
  const entries = listEntries(bytes, what);
  const pick = (wanted) => {
    const entry = entries.find((e) => wanted(e.name));
    return entry && { name: entry.name, data: inflateEntry(bytes, entry, maxBytes, what) };
  };
  const container = pick((name) => name === 'META-INF/container.xml');
  let path;
  if (container) {
    const tree = parseXml(decodeText(container.data), `${what}'s META-INF/container.xml`);
    const root = tree.find((n) => 'container' in n);
    const rootfile = all(first(root, 'rootfiles'), 'rootfile').find(
      (r) => !attr(r, 'media-type') || /musicxml|xml/.test(attr(r, 'media-type') ?? ''),
    );
    path = attr(rootfile, 'full-path');
  }
  const score = path ? pick((name) => name === path) : pick((name) => /\.(musicxml|xml)$/i.test(name) && !name.startsWith('META-INF/'));
  if (!score)
    throw new ImportError(
      `${what} is a zip archive without a MusicXML score${path ? ` (its container names ${path}, which is not in it)` : ' (no META-INF/container.xml and no .musicxml/.xml file)'}`,
    );
  return { text: decodeText(score.data), path: score.name };
}

/**
 * The archive's entries as its central directory declares them; nothing is inflated.
 * @param {Uint8Array} bytes
 * @param {string} what
 * @returns {{ name: string, declared: number }[]}
 */
function listEntries(bytes, what) {
  /** @type {{ name: string, declared: number }[]} */
  const entries = [];
  try {
    unzipSync(bytes, {
      filter: (file) => {
        entries.push({ name: file.name, declared: file.originalSize });
        return false;
      },
    });
  } catch (error) {
    throw notZip(what, error);
  }
  return entries;
}

/**
 * One entry's bytes, inflated as a stream and stopped as soon as they pass the size the archive
 * declared for it or `maxBytes`, whichever is smaller; the error names which.
 * @param {Uint8Array} bytes
 * @param {{ name: string, declared: number }} entry
 * @param {number} maxBytes
 * @param {string} what
 * @returns {Uint8Array}
 */
function inflateEntry(bytes, entry, maxBytes, what) {
  const mb = (n) => Math.round(n / 1024 / 1024);
  if (entry.declared > maxBytes)
    throw new ImportError(`${what}: ${entry.name} unpacks to ${mb(entry.declared)} MB, more than the ${mb(maxBytes)} MB Tutti reads`);
  const limit = entry.declared;
  /** @type {Uint8Array[]} */
  const chunks = [];
  let count = 0;
  let found = false;
  let done = false;
  /** @type {Error | undefined} */
  let failure;
  const unzip = new Unzip((file) => {
    if (found || file.name !== entry.name) return;
    found = true;
    file.ondata = (error, data, final) => {
      if (failure || done) return;
      if (error) failure = notZip(what, error);
      else if ((count += data.length) > limit)
        failure = new ImportError(
          `${what}: ${entry.name} declares ${limit.toLocaleString('en')} bytes but unpacks to more; stopped at ${limit.toLocaleString('en')}`,
        );
      else chunks.push(data);
      if (final) done = true;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < bytes.length && !failure && !done; at += CHUNK)
      unzip.push(bytes.subarray(at, at + CHUNK), at + CHUNK >= bytes.length);
  } catch (error) {
    failure ??= notZip(what, error);
  }
  if (failure) throw failure;
  if (!done) throw new ImportError(`${what} is not a readable zip archive (.mxl): ${entry.name} is cut short`);
  const out = new Uint8Array(count);
  let at = 0;
  for (const chunk of chunks) out.set(chunk, (at += chunk.length) - chunk.length);
  return out;
}

/**
 * @param {string} what
 * @param {unknown} error
 * @returns {ImportError}
 */
function notZip(what, error) {
  if (error instanceof ImportError) return error;
  return new ImportError(`${what} is not a readable zip archive (.mxl): ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * XML bytes as text: UTF-16 when they start with its byte-order mark, else UTF-8.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function decodeText(bytes) {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}
