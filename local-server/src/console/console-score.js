// The console's score check (docs/README.md, POST /api/score/validate): every problem of a score file
// with its path, nothing loaded; a good score summarised. The attempt is remembered for the
// console's score card.

import { loadScoreFile } from '../score/score-file.js';
import { scoreSummary } from './score-summary.js';

const pathBody = {
  type: 'object',
  required: ['path'],
  additionalProperties: false,
  properties: { path: { type: 'string', minLength: 1, maxLength: 4096 } },
};

/**
 * Add the score check route to the console's API.
 * @param {import('fastify').FastifyInstance} app
 * @param {object} options
 * @param {ReturnType<typeof import('./score-history.js').createScoreHistory>} options.history where the attempt is remembered
 */
export function scoreCheckRoutes(app, { history }) {
  app.post('/api/score/validate', { schema: { body: pathBody } }, async (request) => {
    const { path } = /** @type {any} */ (request.body);
    const result = await loadScoreFile(path);
    history.attempted({ path, file: result.file, ok: result.ok, problems: result.problems, at: Date.now() });
    return {
      ok: result.ok,
      file: result.file,
      problems: result.problems,
      score: result.ok ? scoreSummary(result.score, result.file) : null,
    };
  });
}
