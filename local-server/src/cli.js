// `tutti` command line: serve, validate, help. Every failure is one clear message and a
// non-zero exit code, never a bare stack trace.

import path from 'node:path';
import { loadScoreFile } from './score/score-file.js';
import { formatProblems } from '#core/score/validate.js';
import { createTimeline } from '#core/score/timeline.js';
import { parseServeArgs, serveUsage } from './cli/config.js';
import { startShowServer, StartupError, DEFAULT_SCORE } from './server.js';
import { createLog } from './logs/log.js';
import { lanAddress } from './show/lan-address.js';
import { formatTarget } from './osc/osc-target.js';
import { defaultStateDir, resumeFileFor, logFileFor, recordDirFor, partKeyFileFor, NOTATION_DIR_NAME } from './show/state-dir.js';
import { packageVersion } from './cli/version.js';
import { writeNewScore } from './score/new-score.js';
import { buildAudienceFromSource } from './cli/audience-from-source.js';
import { reportCommand } from './report/report-command.js';
import { runImport } from './import/import-command.js';
import { terminalWriter } from './cli/terminal-text.js';

const USAGE = `Tutti — live networked scores

Usage:
  tutti serve [flags]        run the show server (audience + control + OSC); see tutti serve --help
  tutti validate FILE...     check score files; prints every problem with its JSON path
  tutti new NAME             write NAME.score.json, a skeleton that validates, with placeholder media
  tutti report [RECORD]      an offline HTML report of a performance record; see tutti report --help
  tutti import FILE          a score from MusicXML (.musicxml/.xml/.mxl) or MIDI; see tutti import --help
  tutti --version            the version
  tutti help                 this text

Docs: README.md (set-up, console, serve), scores/README.md (score format),
      edge-worker/README.md (edge mirror), artillery/README.md (load tests).`;

/**
 * @param {string[]} argv
 * @param {{ out?: (s: string) => void, err?: (s: string) => void, env?: Record<string, string | undefined> }} [io]
 * @returns {Promise<number | { server: any }>} exit code, or the running server for `serve`
 */
export async function runCli(argv, io = {}) {
  // Everything printed goes through here: control characters from the network are shown, not obeyed.
  const out = terminalWriter(io.out ?? ((s) => process.stdout.write(`${s}\n`)));
  const err = terminalWriter(io.err ?? ((s) => process.stderr.write(`${s}\n`)));
  const [command, ...rest] = argv;

  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    out(USAGE);
    return 0;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    out(`tutti ${packageVersion()}`);
    return 0;
  }
  if (command === 'validate') return validate(rest, out, err);
  if (command === 'new') return newScore(rest, out, err);
  if (command === 'import') return runImport(rest, out, err);
  if (command === 'serve') return serve(rest, out, err, io.env ?? process.env);
  if (command === 'report') return reportCommand(rest, { out, err, env: io.env ?? process.env });
  err(`tutti: unknown command "${command}"\n\n${USAGE}`);
  return 2;
}

const VALIDATE_USAGE = `Usage: tutti validate FILE...

Checks score files against the format in scores/README.md. Prints one line per good score and
every problem of a bad one as "json.path: sentence"; exits 1 if any file has a problem.`;

const NEW_USAGE = `Usage: tutti new NAME

Writes NAME.score.json (NAME may include a folder: shows/first-light) and placeholder media next to
it (media/<id>/bell.wav and card.svg), a 32-bar skeleton that "tutti validate" passes. Its "$schema"
is the file URL of this installation's scores/score.schema.json, so editors complete and check
fields wherever you save it. Nothing is overwritten. See scores/README.md.`;

async function newScore(args, out, err) {
  if (args.includes('--help') || args.includes('-h')) {
    out(NEW_USAGE);
    return 0;
  }
  if (args.length !== 1 || args[0].startsWith('-')) {
    err(`tutti new: give one name, e.g. tutti new first-light\n\n${NEW_USAGE}`);
    return 2;
  }
  try {
    const made = await writeNewScore(args[0]);
    out(`Wrote ${made.scoreFile} (id "${made.id}")`);
    for (const file of made.mediaFiles) out(`  placeholder: ${file}`);
    const shown = /\s/.test(made.scoreFile) ? JSON.stringify(made.scoreFile) : made.scoreFile;
    out(`Check it with: npx tutti validate ${shown}`);
    out(`Play it with:  npx tutti serve --score ${shown}`);
    return 0;
  } catch (e) {
    err(`tutti new: ${e.message}`);
    return 1;
  }
}

async function validate(files, out, err) {
  if (files.includes('--help') || files.includes('-h')) {
    out(VALIDATE_USAGE);
    return 0;
  }
  const unknownFlag = files.find((f) => f.startsWith('-'));
  if (unknownFlag) {
    err(`tutti validate: unknown flag ${unknownFlag}\n\n${VALIDATE_USAGE}`);
    return 2;
  }
  if (files.length === 0) {
    err('tutti validate: give one or more score files, e.g. tutti validate scores/demo.score.json');
    return 2;
  }
  let failed = 0;
  for (const file of files) {
    const result = await loadScoreFile(file);
    if (result.ok) {
      const s = result.score;
      const timeline = createTimeline(s);
      const seconds = Math.round(timeline.msAt(timeline.totalBeats) / 1000);
      out(
        `✓ ${file}: "${s.title}" (${s.id}) — ${s.bars} bars, ${timeline.totalBeats} beats, ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')} at the written tempo, ${(s.cues ?? []).length} cues`,
      );
    } else {
      failed += 1;
      err(
        `✗ ${file}: ${result.problems.length} problem(s)\n${formatProblems(result.problems)
          .split('\n')
          .map((l) => `  ${l}`)
          .join('\n')}`,
      );
    }
  }
  return failed ? 1 : 0;
}

async function serve(argv, out, err, env) {
  if (argv.includes('--help') || argv.includes('-h')) {
    out(serveUsage());
    return 0;
  }
  const { options, errors } = parseServeArgs(argv, env);
  if (errors.length) {
    err(`tutti serve: ${errors.join('; ')}\nRun "tutti serve --help" for the flags.`);
    return 2;
  }
  const tokenGenerated = !options.token;
  const log = createLog({
    redact: [options.token, options.edgeToken].filter(Boolean),
    print: (level, msg) =>
      (level === 'info' ? out : err)(`[${new Date().toISOString().slice(11, 19)}] ${level === 'info' ? '' : `${level}: `}${msg}`),
  });
  const stateDir = defaultStateDir({ env });
  const stateFile = resumeFileFor(options, stateDir);
  const logFile = logFileFor(options, stateDir);
  const recordDir = recordDirFor(options, stateDir);
  const notationCacheDir = path.join(stateDir, NOTATION_DIR_NAME);
  let server;
  try {
    const partKeyFile = partKeyFileFor(stateDir);
    server = await startShowServer({
      ...options,
      stateFile,
      logFile,
      recordDir,
      notationCacheDir,
      partKeyFile,
      log,
      buildAudienceApp: buildAudienceFromSource,
    });
  } catch (e) {
    if (e instanceof StartupError) {
      const details = e.problems.length
        ? `\n${formatProblems(e.problems)
            .split('\n')
            .map((l) => `  ${l}`)
            .join('\n')}`
        : '';
      err(`tutti serve: ${e.message}${details}`);
      return 1;
    }
    err(`tutti serve: could not start: ${e.message}`);
    return 1;
  }
  const s = server.status();
  const lan = lanAddress();
  out(`Tutti is serving "${s.score.title}" (${options.scorePath ?? DEFAULT_SCORE})`);
  if (lan && (!options.host || options.host === '0.0.0.0'))
    out(`  Audience (phones on the venue Wi-Fi): http://${lan}:${server.audiencePort}/`);
  out(`  Audience on this machine:            ${server.audienceUrl}/`);
  out(`  Control API (127.0.0.1 only):        ${server.controlUrl}/api/status`);
  // The token is in the console URL only when it was generated: a token the user chose stays off the screen.
  out(
    `  Console (a browser on this machine): ${server.controlUrl}/?token=${tokenGenerated ? encodeURIComponent(server.token) : 'YOUR_TOKEN'}`,
  );
  if (tokenGenerated) out(`  Control token:                       ${server.token}`);
  out(logFile ? `  Log file (JSON lines, rotated):      ${logFile}` : '  No log file (--no-log-file)');
  out(
    server.recorder
      ? `  Performance record:                  ${server.recorder.dir} (tutti report writes its report)`
      : '  No performance record (--no-record)',
  );
  out(
    stateFile
      ? `  Show position saved to ${stateFile} (resumes after a crash; a clean stop clears it)`
      : '  Show position not saved (--no-resume)',
  );
  // Each target with how it is sent (docs/how-to/connect-osc-tools.md#on-time-in-every-receiver).
  const oscOut = s.osc.targets.map(
    (t) => `${formatTarget(t)} (${t.mode}${t.offsetMs ? `, ${t.offsetMs > 0 ? '+' : ''}${t.offsetMs} ms` : ''})`,
  );
  if (oscOut.length) out(`  OSC out: ${oscOut.join(', ')}`);
  if (s.osc.in)
    out(
      `  OSC in:  udp port ${s.osc.in} on ${s.osc.inHost}${options.oscAllow.length ? `, from ${options.oscAllow.map((r) => `${r.address}/${r.prefix}`).join(', ')}` : ''}`,
    );
  if (options.edgeUrl) out(`  Edge mirror: ${options.edgeUrl}`);
  out(options.autoplay ? '  Playing.' : '  Stopped: start it with POST /api/transport {"action":"play"} or the console.');

  const shutdown = async (signal) => {
    out(`\n${signal}: stopping…`);
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  return { server };
}
