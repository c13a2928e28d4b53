// Which source modules the console page may load as they are, and in what form. The console has
// no bundler: it imports runtime-free core modules (and, for the phone preview, the audience
// page's own view code) straight from the source tree. A module is served only when an entry
// the console names reaches it through its imports, so the list cannot drift from the code.
//
// The one change on the way: the package's `#core/…` import specifiers (package.json "imports")
// mean nothing to a browser, so they are rewritten to the `/core/…` URLs this listener serves.

import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

// Static imports and re-exports only (`import x from '…'`, `export { y } from '…'`, `import '…'`).
const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/g;

/**
 * The browser form of a module's text: `#core/` specifiers point at the served `/core/` path.
 * @param {string} text
 * @returns {string}
 */
export function browserModuleText(text) {
  return text.replace(/(\sfrom\s*['"]|\bimport\s*['"])#core\//g, '$1/core/');
}

/**
 * Every module reachable from `entries` (files under `root`), read once, in the browser form.
 * Imports that leave `root` must be `#core/…` (resolved under `coreDir`, collected into `core`).
 * @param {{ root: string, entries: string[], coreDir: string }} options
 * @param {Map<string, Buffer>} [core] filled with the core modules reached (path under core/ → bytes)
 * @returns {Promise<Map<string, Buffer>>} path under `root` ('/'-separated) → bytes
 */
export async function collectModules({ root, entries, coreDir }, core = new Map()) {
  /** @type {Map<string, Buffer>} */
  const own = root === coreDir ? core : new Map();
  /** @type {Array<{ base: string, file: string, into: Map<string, Buffer> }>} */
  const queue = entries.map((entry) => ({ base: root, file: join(root, entry), into: own }));
  // Bounded: each file is visited once, and the tree has a finite number of files.
  while (queue.length > 0) {
    const { base, file, into } = /** @type {{ base: string, file: string, into: Map<string, Buffer> }} */ (queue.shift());
    const name = relative(base, file).split(sep).join('/');
    if (name.startsWith('..') || into.has(name)) continue;
    const text = await readFile(file, 'utf8');
    into.set(name, Buffer.from(browserModuleText(text)));
    for (const match of text.matchAll(SPECIFIER)) {
      const spec = match[1];
      if (spec.startsWith('#core/')) queue.push({ base: coreDir, file: join(coreDir, spec.slice(6)), into: core });
      else if (spec.startsWith('.')) queue.push({ base, file: join(dirname(file), spec), into });
    }
  }
  return own;
}
