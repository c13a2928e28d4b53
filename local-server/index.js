// The show server's front door: everything outside local-server/ (the desktop app, `npm start`,
// benches, scripts) imports from here and nowhere else, so what lies behind it can move freely.
// docs/reference/cli.md#commands ("`tutti serve` flags") documents what these do.

/** Start and stop a show server (options: ShowServerOptions, including `consoleHost`). */
export { startShowServer, StartupError } from './src/server.js';
/** `tutti serve` flags: parsing and the flag table. */
export { parseServeArgs, SERVE_FLAGS } from './src/cli/config.js';
/** A musician's OSC target's mode and offset, checked (the desktop app's saved settings). */
export { checkTargetOptions } from './src/osc/osc-target.js';
/** Atomic writes that never follow a symbolic link (docs/reference/score-editing-api.md#safe-writes): the desktop app's settings. */
export { replaceFileSync } from './src/files/safe-write.js';
/** Load and validate a score file. */
export { loadScoreFile } from './src/score/score-file.js';
/** The terminal log every host shares. */
export { createLog } from './src/logs/log.js';
/** Writes to a closed stdout / stderr dropped, not fatal: `tutti serve` and the desktop app's server process. */
export { dropOutputToClosedReaders } from './src/cli/closed-output.js';
/** Where the show position and the log file live (docs/how-to/venue-server-unattended.md#crash-resume, "Logs"). */
export { defaultStateDir, resumeFileFor, logFileFor, recordDirFor, partKeyFileFor } from './src/show/state-dir.js';
/** Builds a missing dist/ in a source checkout (never in the desktop app). */
export { buildAudienceFromSource } from './src/cli/audience-from-source.js';
/** The console page's Content-Security-Policy, which the desktop app applies to its window too. */
export { CONSOLE_CSP } from './src/console/console-ui.js';
/** One pre-built WebSocket text frame, as the hub writes it (the fan-out bench's prototypes use it). */
export { encodeTextFrame } from './src/hub/ws-frame.js';

/** The performance record (docs/how-to/record-and-replay.md#the-performance-record): its report, and what `npm run bench:record` simulates a show with. */
export { reportHtml } from './src/report/report-html.js';
export { chunkFiles, openRecordWriter } from './src/record/record-writer.js';
export { startRecorder } from './src/record/recorder.js';
export { createShow } from './src/show/show.js';
export { createMetrics } from './src/logs/metrics.js';
export { createPartPages } from './src/parts/part-pages.js';
export { createTransportLog } from './src/logs/transport-log.js';

/** @typedef {import('./src/logs/log.js').Log} Log */
/** @typedef {import('./src/console/console-api.js').ConsoleHost} ConsoleHost */
/** @typedef {import('./src/server.js').ShowServerOptions} ShowServerOptions */
/** The notation's page shapes (docs/reference/notation.md#layouts): the notation bench engraves each. */
export { LAYOUTS } from './src/notation/layouts.js';
/** `tutti import` from code: a notation file to a score beside it (bench:notation makes its scores so). */
export { importToFile } from './src/import/import-to-file.js';
