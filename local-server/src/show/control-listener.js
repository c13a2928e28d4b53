// The control listener (docs/reference/control-api.md#endpoints): loopback only, the token on every request; the
// control API, the console's API and page, the part pages' console side and the records.

import Fastify from 'fastify';
import { createControlGuard } from '../guards/control-guard.js';
import controlRoutes, { controlErrorHandler, acceptJsonBodiesOfAnyType } from '../routes/control.js';
import consoleApiRoutes from '../console/console-api.js';
import consoleImportRoutes from '../console/console-import.js';
import consoleScoreDocumentRoutes from '../console/console-score-document.js';
import consoleUiRoutes from '../console/console-ui.js';
import consoleScoreMedia from '../console/console-score-media.js';
import consolePartRoutes from '../console/console-parts.js';
import consolePartNotation from '../console/console-part-notation.js';
import recordRoutes from '../routes/records.js';
import rehearsalRoutes from '../routes/rehearsal.js';
import rehearsalModeRoutes from '../routes/rehearsal-mode.js';
import { warnMediaLinks } from '../score/media-link-warning.js';

/**
 * Build the control listener (not listening yet).
 * @param {object} c
 * @param {string} c.token
 * @param {import('../logs/metrics.js').Metrics} c.metrics
 * @param {any} [c.authFailures] the failed-token throttle's settings (tests)
 * @param {ReturnType<typeof import('../logs/server-logs.js').openServerLogs>['fastifyLogging']} c.fastifyLogging
 * @param {any} c.context what the console's routes read (show, status, log, osc, edge, votes, …)
 * @param {string | null} c.recordDir
 */
export async function buildControlListener({ token, metrics, authFailures, fastifyLogging, context, recordDir }) {
  // Strict bodies: an unknown field is a mistake to report, not to drop silently.
  const control = Fastify({
    ...fastifyLogging('control'),
    bodyLimit: 64 * 1024,
    forceCloseConnections: true,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
  });
  // Host, Origin, token and the failed-token throttle (control-guard.js, docs/explanation/threat-model.md).
  control.addHook('onRequest', createControlGuard({ token, metrics, authFailures }));
  acceptJsonBodiesOfAnyType(control);
  control.setErrorHandler(controlErrorHandler(metrics));
  await control.register(controlRoutes, { show: context.show, metrics, status: context.status, log: context.log });
  await control.register(rehearsalRoutes, { show: context.show, status: context.status, log: context.log });
  await control.register(consoleApiRoutes, context);
  await control.register(consoleImportRoutes, context);
  await control.register(consoleScoreDocumentRoutes, { show: context.show, metrics, log: context.log });
  await control.register(consoleUiRoutes, {});
  const media = () => {
    const score = context.show.engine.score();
    return score ? { dir: context.show.source().dir, id: score.id, assets: score.assets ?? [] } : null;
  };
  await control.register(consoleScoreMedia, { media });
  await control.register(consolePartRoutes, context);
  await control.register(consolePartNotation, { partKey: context.partKey, metrics, notation: context.notation });
  await control.register(recordRoutes, { recordDir, onOutside: warnMediaLinks({ metrics, log: context.log }) });
  await control.register(rehearsalModeRoutes, { show: context.show, status: context.status, log: context.log });
  return control;
}
