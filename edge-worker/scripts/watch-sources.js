// `npm run edge:dev` reloads the worker when its sources change, as `wrangler dev` does: one
// call per burst of changes (an editor's save often writes a file several times).

import { watch } from 'node:fs';
import { join } from 'node:path';

const SETTLE_MS = 200;

/**
 * Watch folders (recursively) and call `onChange` once per burst of changes to .js files,
 * never twice at the same time.
 * @param {string[]} dirs
 * @param {(file: string) => Promise<void>} onChange
 * @returns {() => void} stops watching
 */
export function watchSources(dirs, onChange) {
  let timer = null;
  let running = false;
  let again = null;
  const fire = async (file) => {
    if (running) {
      again = file;
      return;
    }
    running = true;
    try {
      await onChange(file);
    } finally {
      running = false;
      if (again) {
        const next = again;
        again = null;
        void fire(next);
      }
    }
  };
  const watchers = dirs.map((dir) =>
    watch(dir, { recursive: true }, (_event, name) => {
      if (!name || !String(name).endsWith('.js')) return;
      clearTimeout(timer);
      timer = setTimeout(() => void fire(join(dir, String(name))), SETTLE_MS);
    }),
  );
  return () => {
    clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}
