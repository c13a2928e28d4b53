// Electron entry ("main" in package.json). Everything lives in ./app.js; this file only hands it
// the real `electron` module and the paths, which differ once packaged (scores ship as extra
// resources next to app.asar).

import electron from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDesktopApp } from './app.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

// Not awaited: Electron may hold 'ready' until this module has finished evaluating.
createDesktopApp({
  electron,
  paths: {
    preload: here('../preload/index.cjs'),
    serverEntry: here('./server-child.js'),
    scoresDir: electron.app.isPackaged ? join(process.resourcesPath, 'scores') : here('../../scores/'),
  },
  // `npm start -- --port 9000` arrives as `electron <folder> --port 9000` (process.defaultApp);
  // a packaged app gets its flags, or the score file the OS opens with it, after the executable.
  launch: { argv: process.argv, defaultApp: Boolean(/** @type {any} */ (process).defaultApp), cwd: process.cwd(), env: process.env },
}).main();
