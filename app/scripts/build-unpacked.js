// Builds the unpacked desktop app (`electron-builder --dir` with electron-builder.yml) for this
// platform and prints where its app.asar is. Used by test/app/packaging.test.js and to try a
// build quickly: node app/scripts/build-unpacked.js [--out DIR]   (default dist/desktop)
//
// Electron distribution: the installed `electron` package's binary when it is on this machine
// (fuses flipped as configured). Where it is not — no machine of this project can download it —
// a STAND-IN distribution is used instead: a folder whose `electron` is a shell script, and the
// fuses are skipped (there is no real binary to flip them in). Everything electron-builder makes
// from the project (app.asar, its node_modules, the extra resources) is then still real; only the
// executable is not (docs/how-to/desktop-app.md#what-is-verified-without-a-real-electron).

import { existsSync } from 'node:fs';
import { mkdtemp, readdir, writeFile, chmod, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from '../electron-binary.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A Linux Electron distribution whose only file is an `electron` that says what it is. */
async function makeStandInElectron() {
  if (process.platform !== 'linux') {
    throw new Error('no Electron binary here, and the stand-in distribution only exists for Linux: run `npx install-electron` first');
  }
  const dir = await mkdtemp(join(tmpdir(), 'tutti-stand-in-electron-'));
  const exe = join(dir, 'electron');
  await writeFile(exe, '#!/bin/sh\necho "stand-in Electron (app/scripts/build-unpacked.js): this build cannot run" >&2\nexit 1\n');
  await chmod(exe, 0o755);
  return dir;
}

/** The first app.asar under `dir` (its folder is linux-unpacked, win-unpacked, mac*…/Resources). */
async function findAsar(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === 'app.asar') return join(entry.parentPath, entry.name);
  }
  return null;
}

/**
 * Build the unpacked app into `outDir`.
 * @param {{ outDir?: string, env?: Record<string, string | undefined> }} [options]
 * @returns {Promise<{ outDir: string, asar: string, resourcesDir: string, standIn: boolean, electronDist: string }>}
 */
export async function buildUnpackedApp({ outDir = join(PROJECT_ROOT, 'dist', 'desktop'), env = process.env } = {}) {
  // The app ships the prebuilt audience app (electron-builder.yml `files`): it must exist.
  if (!existsSync(join(PROJECT_ROOT, 'dist', 'audience', 'manifest.json')))
    throw new Error('dist/audience is not built: run `npm run build` first');
  const { build, Platform } = await import('electron-builder');
  const found = findElectronBinary({ env });
  const standIn = !found.distDir;
  const electronDist = found.distDir ?? (await makeStandInElectron());
  /** @type {Record<string, any>} overrides of electron-builder.yml */
  const config = { electronDist, directories: { output: resolve(outDir) } };
  if (standIn) config.electronFuses = null;
  try {
    await build({ projectDir: PROJECT_ROOT, targets: Platform.current().createTarget('dir'), config });
  } finally {
    if (standIn) await rm(electronDist, { recursive: true, force: true });
  }
  const asar = await findAsar(resolve(outDir));
  if (!asar) throw new Error(`electron-builder made no app.asar under ${outDir}`);
  return { outDir: resolve(outDir), asar, resourcesDir: join(asar, '..'), standIn, electronDist: standIn ? '(stand-in)' : electronDist };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  const outDir = i > 0 ? process.argv[i + 1] : undefined;
  buildUnpackedApp({ outDir }).then(
    (result) => {
      if (result.standIn)
        console.log(
          'Built with a STAND-IN Electron (no binary here): app.asar and resources are real, the executable is not and fuses were not flipped.',
        );
      console.log(JSON.stringify(result));
    },
    (err) => {
      console.error(`build-unpacked: ${err?.message ?? err}`);
      process.exit(1);
    },
  );
}
