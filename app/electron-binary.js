// Where the installed `electron` package's binary is, WITHOUT fetching it. Since Electron 42 the
// package has no install script: its index.js downloads the binary the first time it is
// required (or `npx install-electron` does). So `npm start` and the packaging script never
// require it; they read the package's path.txt and look for the file themselves
// (docs/how-to/desktop-app.md#building-the-desktop-app).

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * @typedef {object} ElectronBinary
 * @property {string | null} binary the executable, when it is on this machine
 * @property {string | null} distDir the unpacked Electron distribution holding it
 * @property {string} reason why there is none ('' when there is one)
 */

/**
 * Find the Electron binary of the installed `electron` package; never downloads anything.
 * @param {{ env?: Record<string, string | undefined>, packageDir?: string }} [options]
 *   packageDir: the `electron` package's folder (default: resolved from this project)
 * @returns {ElectronBinary}
 */
export function findElectronBinary({ env = process.env, packageDir } = {}) {
  if (env.TUTTI_NO_ELECTRON === '1') return { binary: null, distDir: null, reason: 'TUTTI_NO_ELECTRON=1' };
  let dir = packageDir;
  if (!dir) {
    try {
      dir = dirname(require.resolve('electron/package.json'));
    } catch {
      return { binary: null, distDir: null, reason: 'the electron package is not installed' };
    }
  }
  // path.txt is written when the binary is unpacked: the executable's path inside dist/.
  let inside = null;
  try {
    inside = readFileSync(join(dir, 'path.txt'), 'utf8').trim();
  } catch {
    inside = null;
  }
  // The same override the electron package honours.
  const distDir = env.ELECTRON_OVERRIDE_DIST_PATH || join(dir, 'dist');
  if (!inside && !env.ELECTRON_OVERRIDE_DIST_PATH) {
    return { binary: null, distDir: null, reason: 'the Electron binary has not been downloaded: `npx install-electron` fetches it' };
  }
  const binary = join(distDir, inside || 'electron');
  if (!existsSync(binary)) return { binary: null, distDir: null, reason: `the Electron binary is missing (${binary})` };
  return { binary, distDir, reason: '' };
}
