// Builds the musicians' part page (docs/how-to/part-pages.md#part-pages) into dist/part/: index.html and
// content-hashed JS/CSS under assets/, with .br/.gz siblings and manifest.json, the same way as
// the audience app (build.js). Its own folder, not dist/audience: the edge worker serves that
// folder to the public, and nothing of the part page may be reachable there. The venue server
// serves this folder only under /part/<key>/ (local-server/src/routes/part.js).
//
// Usage: node web/audience/build.js   (builds the audience app, then this)

import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPage, hashOf, writeBuiltApp } from './build.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SRC = join(HERE, 'part');
export const PART_OUT_DIR = join(HERE, '..', '..', 'dist', 'part');

/**
 * Build the part page into `outDir`.
 * @param {{ quiet?: boolean, outDir?: string }} [options]
 * @returns {Promise<{ outDir: string, files: Record<string, import('./build.js').BuiltFile> }>}
 */
export async function buildPartApp({ quiet = false, outDir = PART_OUT_DIR } = {}) {
  // A tablet on a music stand must not go dark mid-piece: the same keep-awake video as the audience page.
  const { js, css, video, html, jsPath, cssPath, videoPath } = await buildPage(SRC, 'part');
  const version = hashOf(Buffer.concat([html, js, css]));
  const files = await writeBuiltApp(
    outDir,
    [
      [jsPath, js],
      [cssPath, css],
      [videoPath, video],
      ['index.html', html],
    ],
    version,
  );
  if (!quiet)
    console.log(
      `part page → ${outDir}: ${jsPath} ${(js.length / 1024).toFixed(1)} KB (br ${(files[jsPath].br / 1024).toFixed(1)} KB), ${cssPath}`,
    );
  return { outDir, files };
}
