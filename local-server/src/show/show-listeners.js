// The show server's two listeners built on its parts (docs/reference/audience-protocol.md#endpoints and
// "Control API"): the audience listener (public: the stream, the page, media, part pages, votes)
// and the control listener (loopback + token: the console and the control API), with the
// settings each takes from the server's options. Neither listens yet: server.js does that.

import { fileURLToPath } from 'node:url';
import { buildAudienceListener } from './audience-listener.js';
import { buildControlListener } from './control-listener.js';

export const AUDIENCE_DIST = fileURLToPath(new URL('../../../dist/audience', import.meta.url));
/** The musicians' part page (docs/how-to/part-pages.md#part-pages), built next to the audience app but never in its folder: the edge serves that folder. */
export const PART_DIST = fileURLToPath(new URL('../../../dist/part', import.meta.url));
/** Sockets per address: a NAT'd family's phones and tablets, each with a page, a stream and a poll. */
export const DEFAULT_MAX_PER_ADDRESS = 16;
/** A phone sends its request within milliseconds of connecting; an idle socket is an attack or a bug. */
export const FIRST_REQUEST_TIMEOUT_MS = 5_000;

/**
 * @param {object} c
 * @param {{ show: import('./show.js').Show, metrics: import('../logs/metrics.js').Metrics, now: () => number, overflow: any, votes: any, reactions: any, log: import('../logs/log.js').Log, osc: any, edge: any, status: () => object, media: () => { dir: string, assets: any[] }, notation: any }} c.parts
 * @param {Pick<ReturnType<typeof import('../logs/server-logs.js').openServerLogs>, 'printed' | 'fastifyLogging'>} c.logs
 * @param {string} c.token the control token
 * @param {import('../server.js').ShowServerOptions} c.options
 * @param {() => number} c.audiencePort the audience listener's port once it listens
 */
export async function buildShowListeners({ parts, logs, token, options, audiencePort }) {
  const { show, metrics, votes, reactions, log, osc, edge, status } = parts;
  const { printed, fastifyLogging } = logs;
  // The audience listener takes the parts it serves (show, votes, …) and ignores the rest.
  const { audience, probeKey, partKey, partPages, stopSweeping } = await buildAudienceListener({
    ...parts,
    printed,
    fastifyLogging,
    settings: {
      rateLimit: options.rateLimit,
      maxPerAddress: options.maxPerAddress ?? DEFAULT_MAX_PER_ADDRESS,
      trustProxy: options.trustProxy ?? false,
      firstRequestTimeoutMs: options.firstRequestTimeoutMs ?? FIRST_REQUEST_TIMEOUT_MS,
      audienceDist: AUDIENCE_DIST,
      partDist: PART_DIST,
      buildAudienceApp: options.buildAudienceApp,
      partKeyFile: options.partKeyFile ?? null,
    },
  });
  const control = await buildControlListener({
    token,
    metrics,
    authFailures: options.authFailures,
    fastifyLogging,
    recordDir: options.recordDir ?? null,
    context: {
      show,
      metrics,
      status,
      log,
      osc,
      edge,
      votes,
      reactions,
      partPages,
      audienceHost: options.host ?? '0.0.0.0',
      audiencePort,
      probeKey: probeKey.key,
      partKey,
      notation: parts.notation,
      consoleHost: options.consoleHost ?? { mode: 'serve' },
    },
  });
  return { audience, control, probeKey, partKey, partPages, stopSweeping };
}
