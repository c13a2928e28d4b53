// Compressed MusicXML (.mxl): a zip archive whose META-INF/container.xml names the score file
// (its first <rootfile full-path>). Unzipping is fflate's; sizes are checked before inflating so
// a zip bomb is refused rather than unpacked.

import { unzipSync } from 'fflate';
import { ImportError } from '#core/import/import-error.js';
import { all, attr, first, parseXml } from './xml-tree.js';

/**
 * The MusicXML text inside an .mxl archive.
 * @param {Uint8Array} bytes
 * @param {{ maxBytes: number, what?: string }} options
 * @returns {{ text: string, path: string }}
 */
export function readMxl(bytes, { maxBytes, what = 'the file' }) {
  const container = unzipOne(bytes, (name) => name === 'META-INF/container.xml', maxBytes, what);
  let path;
  if (container) {
    const tree = parseXml(decodeText(container.data), `${what}'s META-INF/container.xml`);
    const root = tree.find((n) => 'container' in n);
    const rootfile = all(first(root, 'rootfiles'), 'rootfile').find(
      (r) => !attr(r, 'media-type') || /musicxml|xml/.test(attr(r, 'media-type') ?? ''),
    );
    path = attr(rootfile, 'full-path');
  }
  const score = path
    ? unzipOne(bytes, (name) => name === path, maxBytes, what)
    : unzipOne(bytes, (name) => /\.(musicxml|xml)$/i.test(name) && !name.startsWith('META-INF/'), maxBytes, what);
  if (!score)
    throw new ImportError(
      `${what} is a zip archive without a MusicXML score${path ? ` (its container names ${path}, which is not in it)` : ' (no META-INF/container.xml and no .musicxml/.xml file)'}`,
    );
  return { text: decodeText(score.data), path: score.name };
}

function unzipOne(bytes, wanted, maxBytes, what) {
  let found;
  let files;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        if (found || !wanted(file.name)) return false;
        if (file.originalSize > maxBytes)
          throw new ImportError(
            `${what}: ${file.name} unpacks to ${Math.round(file.originalSize / 1024 / 1024)} MB, more than the ${Math.round(maxBytes / 1024 / 1024)} MB Tutti reads`,
          );
        found = file.name;
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(`${what} is not a readable zip archive (.mxl): ${error instanceof Error ? error.message : String(error)}`);
  }
  return found ? { name: found, data: files[found] } : undefined;
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
