// wrangler refuses to start when the assets directory is missing. Build the audience app when
// its builder exists; otherwise (local dev and tests only) leave a one-page placeholder.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../../', import.meta.url);
export const ASSETS_DIR = fileURLToPath(new URL('dist/audience/', root));
const BUILD_SCRIPT = new URL('web/audience/build.js', root);
const PLACEHOLDER_MARK = 'the audience app is not built yet';

/**
 * @param {{ allowPlaceholder?: boolean, build?: boolean, log?: (line: string) => void }} [options]
 * @returns {Promise<'present' | 'built' | 'placeholder'>}
 */
export async function ensureAudienceAssets({ allowPlaceholder = true, build = true, log = () => {} } = {}) {
  const index = `${ASSETS_DIR}index.html`;
  if (build && existsSync(BUILD_SCRIPT)) {
    const { buildAudienceApp } = await import(BUILD_SCRIPT.href);
    await buildAudienceApp({ quiet: true });
    if (existsSync(index)) return 'built';
  }
  const placeholder = existsSync(index) && readFileSync(index, 'utf8').includes(PLACEHOLDER_MARK);
  if (existsSync(index) && !placeholder) return 'present';
  if (placeholder && allowPlaceholder) return 'placeholder';
  if (!allowPlaceholder) {
    throw Object.assign(new Error(`the audience app is not built (${index} is missing): run its build first`), { code: 'NO_ASSETS' });
  }
  mkdirSync(ASSETS_DIR, { recursive: true });
  writeFileSync(index, '<!doctype html><meta charset="utf-8"><title>Tutti</title><p>Tutti edge: ${PLACEHOLDER_MARK}.</p>\n');
  log(`wrote a placeholder ${index} (the audience app is not built yet)`);
  return 'placeholder';
}
