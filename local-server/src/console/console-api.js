// The console's API, beyond docs/reference/control-api.md#endpoints table (which lives in control.js): one
// snapshot of everything the composer's console shows (GET /api/console), a live feed (GET
// /api/events, SSE), score checks before anything plays, OSC targets, the edge mirror switch, a
// count-in, and the server's log. Every route sits behind the control listener's bearer token;
// bodies are checked by JSON schemas; errors are JSON with a code. Nothing here can crash the show.

import { createLatencyProbe, clock } from './latency-probe.js';
import { createCountIn } from './count-in.js';
import { createAudienceStats, countViewers } from './audience-stats.js';
import { createAudienceAddress } from './audience-address.js';
import { createLiveFeed } from './live-feed.js';
import { createVoicesFeed } from './voices-feed.js';
import { createLogCursor } from './log-cursor.js';
import { createScoreHistory } from './score-history.js';
import { createStatsSampler } from './stats-sampler.js';
import { scoreSummary } from './score-summary.js';
import { transportStatus } from './transport-status.js';
import { createOscPanel } from './console-osc.js';
import { createEdgePanel } from './console-edge.js';
import { countInRoutes } from './console-count-in.js';
import { scoreCheckRoutes } from './console-score.js';
import { sendError } from '../routes/send-error.js';

/**
 * What the program hosting the server (`npm start`, the desktop app) tells the console: where
 * settings live and the recent scores. `onChange` receives what the console changed
 * ({ oscTargets } | { edgeUrl, edgeToken } | { scorePath }) so the host can persist it.
 * @typedef {object} ConsoleHost
 * @property {'browser' | 'electron' | 'serve'} mode
 * @property {() => string[]} [recentScores]
 * @property {(change: Record<string, unknown>) => void} [onChange]
 * @property {string} [audienceHost] the audience listener's bind address
 * @property {string} [settingsPath] where settings are kept (shown, never the token)
 * @property {string} [scoresDir] where the bundled scores are
 */

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ show: import('../show/show.js').Show, metrics: import('../logs/metrics.js').Metrics, status: () => any, log: any, osc: any, edge: any, audiencePort: () => number, probeKey: string, consoleHost: ConsoleHost, votes?: any, reactions?: any }} options
 */
export default async function consoleApi(
  app,
  { show, metrics, status, log, osc, edge, audiencePort, probeKey, consoleHost, votes, reactions },
) {
  const startedAt = Date.now();
  /** What the console changed, for the host to save. */
  const tell = (change) => {
    try {
      consoleHost.onChange?.(change);
    } catch (err) {
      log.warn(`could not save console settings: ${err.message}`);
    }
  };

  // ---- the live feed: Server-Sent Events over the authenticated control listener (console/live-feed.js) ----
  const probe = createLatencyProbe({ port: audiencePort, key: probeKey });
  /** The server's clock (the one `t` and `position.at` use), as measured by the probe's pings. */
  const serverNow = () => clock() + probe.offset();
  const feed = createLiveFeed({ serverNow });
  const broadcast = (event, data) => feed.broadcast(event, data);

  // ---- what the cards show: where the show is, the score, the count-in, OSC, edge, log, voices ----
  const transport = () => transportStatus(show);
  const history = createScoreHistory({ host: consoleHost });
  const currentScore = () => scoreSummary(show.engine.score(), show.source().path);
  const countIn = createCountIn({ show, tell: (data) => broadcast('countin', data) });
  const oscPanel = createOscPanel({ osc, status, log, tell });
  const edgePanel = createEdgePanel({ edge, status, tell, log });
  const logView = createLogCursor({ log });
  // Prompts and reactions (docs/reference/audience-protocol.md#audience-voices): a `voices` event whenever they change.
  const voices = createVoicesFeed({ show, votes, reactions, broadcast });
  const audienceAddress = createAudienceAddress({ audiencePort, boundHost: () => consoleHost.audienceHost ?? null });

  // ---- audience numbers, sampled once a second while a console looks (console/audience-stats.js) ----
  const viewerCounts = () => countViewers(show.hub, edge);
  const stats = createAudienceStats({ metrics, probe, viewerCounts });
  const sampler = createStatsSampler({
    probe,
    watchers: () => feed.size(),
    log,
    async sample() {
      broadcast('stats', {
        stats: await stats.sample(),
        viewers: viewerCounts(),
        edge: edgePanel.status(),
        osc: oscPanel.status(),
        transport: transport(),
        // The engraving's progress (docs/reference/notation.md#progress), shown on the score card.
        notation: status().notation ?? null,
      });
      const fresh = logView.fresh();
      if (fresh.length) broadcast('log', { entries: fresh });
    },
  });

  /** Everything a console shows, at once (GET /api/console, the live feed's `hello`). */
  async function snapshot() {
    sampler.looked();
    return {
      now: serverNow(),
      startedAt,
      mode: consoleHost.mode,
      settingsPath: consoleHost.settingsPath ?? null,
      scoresDir: consoleHost.scoresDir ?? null,
      score: currentScore(),
      lastAttempt: history.lastAttempt(),
      recentScores: history.recent(),
      transport: transport(),
      audience: await audienceAddress.info(),
      viewers: viewerCounts(),
      stats: stats.latest() ?? (await stats.sample()),
      osc: oscPanel.status(),
      edge: edgePanel.status(),
      notation: status().notation ?? null,
      log: logView.all(),
      voices: voices.current(),
    };
  }

  // ---- the show's events on the feed ----
  const stopListening = show.listen({
    score(next) {
      history.loaded(next.path);
      tell({ scorePath: next.path });
      countIn.cancel('a new score was loaded');
      broadcast('score', {
        score: currentScore(),
        lastAttempt: history.lastAttempt(),
        recentScores: history.recent(),
        revision: next.revision ?? null,
      });
    },
    // An edit applied while playing (docs/reference/score-editing-api.md#apply-while-playing): every
    // console shows the edited score, and their editors follow it when nothing there is unsaved.
    edited: (next) =>
      broadcast('score', {
        score: currentScore(),
        lastAttempt: history.lastAttempt(),
        recentScores: history.recent(),
        revision: next.revision ?? null,
        edited: true,
      }),
    transport: () => broadcast('transport', transport()),
    // Rehearsal mode (docs/README.md): every console shows at once whether the hall sees the show.
    rehearsal: () => broadcast('transport', transport()),
    beat: (beat) => broadcast('beat', beat),
  });

  app.addHook('onClose', async () => {
    stopListening();
    voices.close();
    sampler.close();
    countIn.close('server closing');
    probe.close();
    feed.close();
  });

  // ---- routes ----
  app.get('/api/console', async () => snapshot());

  app.get('/api/events', async (request, reply) => {
    if (feed.full()) return sendError(reply, 'TOO_MANY_STREAMS', { message: feed.fullMessage() });
    const first = await snapshot();
    reply.hijack();
    feed.add(reply.raw, first);
    logView.fresh(); // the hello carried the log so far
  });

  app.get('/api/log', async () => ({ entries: logView.all() }));

  scoreCheckRoutes(app, { history });
  oscPanel.routes(app);
  edgePanel.routes(app);
  countInRoutes(app, { countIn, transportStatus: transport });
}
