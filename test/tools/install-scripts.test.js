// Dependencies' install scripts are declared in package.json's allowScripts (npm 11), so a
// `--strict-allow-scripts` install works and nothing runs unreviewed (docs/how-to/set-up.md#set-up).
// Read from the lockfile: every locked package that has an install script must have an entry.
import { readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8'));

/** `node_modules/a/node_modules/@s/b` → `@s/b` */
const nameOf = (path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

test('every locked package with an install script is allowed or denied in allowScripts', () => {
  const withScripts = Object.entries(lock.packages)
    .filter(([path, p]) => path && p.hasInstallScript)
    .map(([path]) => nameOf(path));
  expect(withScripts.length).toBeGreaterThan(0);
  const policy = pkg.allowScripts ?? {};
  const declared = (name) => Object.keys(policy).some((key) => key === name || key.startsWith(`${name}@`));
  expect(withScripts.filter((name) => !declared(name))).toEqual([]);
  // Entries for packages that no longer have scripts are stale (npm install-scripts prune).
  expect(Object.keys(policy).filter((key) => !withScripts.some((name) => key === name || key.startsWith(`${name}@`)))).toEqual([]);
});

test('the runtime, esbuild and workerd binaries install; the browser download and native builds do not run', () => {
  expect(pkg.allowScripts).toMatchObject({
    node: true,
    esbuild: true,
    workerd: true,
    '@playwright/browser-chromium': false,
    'unix-dgram': false,
    '@parcel/watcher': false,
  });
  // npm's own mechanism replaces the old stand-in package for Artillery's browser download.
  expect(pkg.overrides?.['@playwright/browser-chromium']).toBeUndefined();
});
