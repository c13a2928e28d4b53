// What a run of the console was asked for on its command line: the flags of `tutti serve`
// (parsed by local-server's own parser, docs/reference/cli.md#tutti-serve-flags, with the TUTTI_*
// variables) and, for the desktop app, a score file given bare — what the OS passes when a
// `.score.json` is opened with Tutti (file association) or handed to a second instance.

import { isAbsolute, resolve } from 'node:path';
import { parseServeArgs, SERVE_FLAGS } from '../../local-server/index.js';

const FLAG_TAKES_VALUE = new Map(SERVE_FLAGS.map((f) => [f.name, f.kind !== 'bool']));
export const SCORE_FILE_SUFFIX = '.score.json';

/**
 * The launch overrides launchShow understands, from `tutti serve` options (unset ones left out).
 * @param {Record<string, any>} options parseServeArgs(...).options
 * @returns {Record<string, any>}
 */
export function overridesFromServeOptions(options) {
  return Object.fromEntries(
    Object.entries({
      scorePath: options.scorePath,
      host: options.host,
      port: options.port,
      controlPort: options.controlPort,
      token: options.token,
      autoplay: options.autoplay || undefined,
      oscTargets: options.oscTargets?.length ? options.oscTargets : undefined,
      oscPlain: options.oscPlain || undefined,
      oscInPort: options.oscInPort,
      edgeUrl: options.edgeUrl,
      edgeToken: options.edgeToken,
      maxClients: options.maxClients,
      rateLimit: options.rateLimit,
      stateFile: options.stateFile,
      oscInHost: options.oscInPort === null ? undefined : options.oscInHost,
      oscAllow: options.oscAllow?.length ? options.oscAllow : undefined,
      maxPerAddress: options.maxPerAddress,
      trustProxy: options.trustProxy || undefined,
      resume: options.resume === false ? false : undefined,
      logFile: options.logFile,
      logToFile: options.logToFile === false ? false : undefined,
      recordDir: options.recordDir,
      record: options.record === false ? false : undefined,
    }).filter(([, v]) => v !== undefined && v !== null),
  );
}

/**
 * The user's arguments in Electron's process.argv: after the executable, and after the app's
 * folder when run as `electron <folder>` (process.defaultApp).
 * @param {string[]} argv
 * @param {boolean} defaultApp
 */
export function userArgs(argv, defaultApp) {
  return argv.slice(defaultApp ? 2 : 1);
}

/**
 * Parse the desktop app's arguments. Electron and Chromium put their own switches in the same
 * argv (--no-sandbox, --enable-logging, …), so flags that are not `tutti serve` flags are
 * skipped and listed, not errors; `npm start` has already refused unknown flags before starting
 * Electron. A bare `*.score.json` is the score to open (the last one wins).
 * @param {string[]} args userArgs(...)
 * @param {{ env?: Record<string, string | undefined>, cwd?: string }} [context]
 * @returns {{ overrides: Record<string, any>, errors: string[], skipped: string[] }}
 */
export function parseDesktopArgs(args, { env = {}, cwd = process.cwd() } = {}) {
  const flags = [];
  const skipped = [];
  let scoreFile = null;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg.startsWith('--')) {
      const name = arg.slice(2).split('=')[0];
      if (!FLAG_TAKES_VALUE.has(name)) {
        skipped.push(arg);
        continue;
      }
      flags.push(arg);
      if (FLAG_TAKES_VALUE.get(name) && !arg.includes('=') && i + 1 < args.length && !args[i + 1].startsWith('--')) flags.push(args[++i]);
    } else if (arg.toLowerCase().endsWith(SCORE_FILE_SUFFIX)) scoreFile = arg;
    else skipped.push(arg);
  }
  const { options, errors } = parseServeArgs(flags, env);
  const overrides = overridesFromServeOptions(options);
  if (scoreFile) overrides.scorePath = scoreFile;
  // The show server runs in another process: make the score's path independent of its cwd.
  if (overrides.scorePath && !isAbsolute(overrides.scorePath)) overrides.scorePath = resolve(cwd, overrides.scorePath);
  if (overrides.stateFile && !isAbsolute(overrides.stateFile)) overrides.stateFile = resolve(cwd, overrides.stateFile);
  if (overrides.logFile && !isAbsolute(overrides.logFile)) overrides.logFile = resolve(cwd, overrides.logFile);
  if (overrides.recordDir && !isAbsolute(overrides.recordDir)) overrides.recordDir = resolve(cwd, overrides.recordDir);
  return { overrides, errors, skipped };
}
