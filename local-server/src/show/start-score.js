// Which score a show server starts with (docs/how-to/venue-server-unattended.md#crash-resume): the one asked for, else the
// interrupted show's (its saved position is then resumed), else the demo score.

import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { loadScoreFile } from '../score/score-file.js';
import { readResumeFile } from './resume-file.js';
import { StartupError } from './startup-error.js';

export const DEFAULT_SCORE = fileURLToPath(new URL('../../../scores/demo.score.json', import.meta.url));

/**
 * @param {object} options
 * @param {string} [options.scorePath] the score asked for
 * @param {string | null} options.stateFile the resume file (null: crash resume off)
 * @param {{ warn: (msg: string) => void }} options.log
 * @returns {Promise<{ saved: any, scorePath: string, loaded: any }>} saved: the interrupted show's record, or null
 * @throws {StartupError} INVALID_SCORE
 */
export async function loadStartScore({ scorePath: asked, stateFile, log }) {
  // The resume file exists only when the last run did not stop cleanly.
  /** @type {import('./resume-file.js').ResumeRead} */
  const read = stateFile ? await readResumeFile(stateFile) : { status: 'absent' };
  if (read.status === 'corrupt')
    log.warn(
      `the saved show position in ${stateFile} is unusable (${read.reason})${read.keptAs ? `; kept as ${read.keptAs}` : ''}; starting from the top`,
    );
  const saved = read.status === 'ok' ? read.record : null;
  let scorePath = asked ?? saved?.scorePath ?? DEFAULT_SCORE;
  let loaded = await loadScoreFile(scorePath);
  if (!loaded.ok && !asked && saved) {
    // The score of the interrupted show is gone or broken now: a crash must not stop the next start.
    log.warn(`the interrupted show's score ${scorePath} does not load any more; opening ${DEFAULT_SCORE} instead`);
    scorePath = DEFAULT_SCORE;
    loaded = await loadScoreFile(scorePath);
  }
  if (!loaded.ok)
    throw new StartupError('INVALID_SCORE', `The score ${scorePath} has ${loaded.problems.length} problem(s).`, loaded.problems);
  return { saved, scorePath, loaded };
}

/**
 * Apply the interrupted show's saved point when it belongs to this score and every value is in
 * range (docs/how-to/venue-server-unattended.md#crash-resume); says in the log what it did.
 * @param {object} options
 * @param {any} options.saved the resume record from loadStartScore
 * @param {string} options.scorePath the score this server starts with
 * @param {string | null} options.stateFile the resume file, for the log
 * @param {import('./show.js').Show} options.show
 * @param {{ info: (msg: string) => void, warn: (msg: string) => void }} options.log
 * @returns {boolean} whether the show was resumed
 */
export function resumeSaved({ saved, scorePath, stateFile, show, log }) {
  if (path.resolve(saved.scorePath) !== path.resolve(scorePath)) {
    log.info(`not resuming: the interrupted show was ${saved.scorePath}, this one is ${path.resolve(scorePath)}`);
    return false;
  }
  const problem = show.engine.resumeProblem(saved.point);
  if (problem !== null) {
    log.warn(`not resuming from ${stateFile}: ${problem}; starting from the top`);
    return false;
  }
  if (!show.engine.resumeFrom(saved.point)) return false;
  const { transport, position, loop } = show.engine.status();
  const looping = loop
    ? `, in the loop bar ${loop.from.bar}–${loop.to.bar} (pass ${loop.pass}${loop.of === null ? ', until released' : ` of ${loop.of}`})`
    : '';
  const countIn = saved.point.countingIn ? '; its count-in was not resumed (paused on the start beat)' : '';
  log.info(`resumed the show after an unclean stop (${stateFile}): ${transport} at bar ${position.bar}${looping}${countIn}`);
  return true;
}
