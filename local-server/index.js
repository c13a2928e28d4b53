// The show server's front door: everything outside local-server/ (the desktop app, `npm start`,
// benches, scripts) imports from here and nowhere else, so what lies behind it can move freely.
// README.md ("Running a show", "`tutti serve` flags") documents what these do.

/** Start and stop a show server (options: ShowServerOptions, including `consoleHost`). */
export { startShowServer, StartupError } from './src/server.js';
/** `tutti serve` flags: parsing and the flag table. */
export { parseServeArgs, SERVE_FLAGS } from './src/config.js';
/** A musician's OSC target's mode and offset, checked (the desktop app's saved settings). */
export { checkTargetOptions } from './src/osc-target.js';
/** Load and validate a score file. */
export { loadScoreFile } from './src/score-file.js';
/** The terminal log every host shares. */
export { createLog } from './src/log.js';
/** Writes to a closed stdout / stderr dropped, not fatal: `tutti serve` and the desktop app's server process. */
export { dropOutputToClosedReaders } from './src/closed-output.js';
/** Where the show position and the log file live (README.md, "Crash resume", "Logs"). */
export { defaultStateDir, resumeFileFor, logFileFor, recordDirFor } from './src/state-dir.js';
/** Builds a missing dist/ in a source checkout (never in the desktop app). */
export { buildAudienceFromSource } from './src/audience-from-source.js';
/** The console page's Content-Security-Policy, which the desktop app applies to its window too. */
export { CONSOLE_CSP } from './src/routes/console-ui.js';
/** One pre-built WebSocket text frame, as the hub writes it (the fan-out bench's prototypes use it). */
export { encodeTextFrame } from './src/hub/ws-frame.js';

/** The performance record (README.md, "The performance record"): its report, and what `npm run bench:record` simulates a show with. */
export { reportHtml } from './src/report/report-html.js';
export { chunkFiles, openRecordWriter } from './src/record/record-writer.js';
export { startRecorder } from './src/record/recorder.js';
export { createShow } from './src/show.js';
export { createMetrics } from './src/metrics.js';
export { createPartPages } from './src/part-pages.js';
export { createTransportLog } from './src/transport-log.js';

/** @typedef {import('./src/log.js').Log} Log */
/** @typedef {import('./src/routes/console-api.js').ConsoleHost} ConsoleHost */
/** @typedef {import('./src/server.js').ShowServerOptions} ShowServerOptions */
/** The notation's page shapes (docs/reference/notation.md#layouts): the notation bench engraves each. */
export { LAYOUTS } from './src/notation/layouts.js';
/** `tutti import` from code: a notation file to a score beside it (bench:notation makes its scores so). */
export { importToFile } from './src/import/import-to-file.js';
