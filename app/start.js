// `npm start`: the desktop console when an Electron binary can run here; otherwise (no binary,
// as on machines that cannot download it) one line saying so, then the same console served in
// the browser on the loopback control listener, with its URL and token printed.
//
// Flags are those of `tutti serve` (and TUTTI_* variables); saved settings fill in the rest.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  parseServeArgs,
  StartupError,
  createLog,
  defaultStateDir,
  resumeFileFor,
  logFileFor,
  recordDirFor,
  buildAudienceFromSource,
} from '../local-server/index.js';
import { formatProblems } from '#core/score/validate.js';
import { createSettingsStore, browserConfigDir } from './main/settings-store.js';
import { launchShow } from './main/launch-show.js';
import { overridesFromServeOptions } from './main/launch-args.js';
import { findElectronBinary } from './electron-binary.js';

const APP_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** If Electron exits this soon with an error (no display, missing libraries), fall back. */
const EARLY_EXIT_MS = 4000;

const out = (line) => process.stdout.write(`${line}\n`);
const err = (line) => process.stderr.write(`${line}\n`);

/** Run the desktop app; resolves false when it died at once (so the browser console takes over). */
function runElectron(binary, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(binary, [APP_ROOT, ...args], { stdio: 'inherit' });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => {
      if (code !== 0 && Date.now() - started < EARLY_EXIT_MS) resolve(false);
      else process.exit(code ?? 0);
    });
    for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.once(signal, () => child.kill(signal));
  });
}

/** @param {Record<string, any>} options parsed `tutti serve` flags */
async function serveInBrowser(options, reason) {
  out(`Electron cannot run here (${reason}): serving the same console in your browser instead.`);
  const store = createSettingsStore({ dir: browserConfigDir(), warn: (msg) => err(`warning: ${msg}`) });
  const settings = store.load();
  const log = createLog({
    redact: [options.token, options.edgeToken].filter(Boolean),
    print: (level, msg) => {
      if (level !== 'info') err(`[${new Date().toISOString().slice(11, 19)}] ${level}: ${msg}`);
    },
  });
  const overrides = overridesFromServeOptions(options);

  let launched;
  try {
    launched = await launchShow({
      settings,
      overrides,
      mode: 'browser',
      settingsPath: store.path,
      stateFile: resumeFileFor(options, defaultStateDir()),
      logFile: logFileFor(options, defaultStateDir()),
      recordDir: recordDirFor(options, defaultStateDir()),
      log,
      recentScores: () => store.get().recentScores,
      onChange: (change) => store.update(change),
      buildAudienceApp: buildAudienceFromSource,
    });
  } catch (e) {
    if (e instanceof StartupError) {
      const details = e.problems?.length
        ? `\n${formatProblems(e.problems)
            .split('\n')
            .map((l) => `  ${l}`)
            .join('\n')}`
        : '';
      err(`npm start: ${e.message}${details}`);
    } else err(`npm start: could not start the show server: ${e.message}`);
    return 1;
  }
  const { server } = launched; // its notices went to the log, printed above as warnings
  out(`  Console (open in a browser on this machine): ${server.controlUrl}/?token=${encodeURIComponent(server.token)}`);
  out(`  Audience on this machine: ${server.audienceUrl}/   (the console shows the Wi-Fi address and a QR code)`);
  out(`  Settings: ${store.path}`);
  out('  Stop with Ctrl+C.');

  const shutdown = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  return null;
}

async function main() {
  const argv = process.argv.slice(2);
  // The same flags in both modes, refused the same way before anything starts (the desktop app
  // parses them again from its argv: app/main/launch-args.js).
  const { options, errors } = parseServeArgs(argv, process.env);
  if (errors.length) {
    err(`npm start: ${errors.join('; ')}\nThe flags are those of "tutti serve" (see: npx tutti serve --help).`);
    process.exit(2);
  }
  // Never `import('electron')` here: since Electron 42 that downloads a missing binary.
  const { binary, reason } = findElectronBinary();
  if (binary && (await runElectron(binary, argv))) return;
  const code = await serveInBrowser(options, binary ? 'the Electron binary exited at once — no display?' : reason);
  if (code !== null) process.exit(code);
}

main().catch((e) => {
  err(`npm start: ${e?.message ?? e}`);
  process.exit(1);
});
