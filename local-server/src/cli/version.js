// The version printed by `tutti --version`: package.json's, read once.

import { readFileSync } from 'node:fs';

/** @returns {string} the "version" of the project's package.json */
export function packageVersion() {
  return JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version;
}
