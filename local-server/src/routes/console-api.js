// The console's API, beyond README.md's "Control API" table (which lives in control.js): one
// snapshot of everything the composer's console shows (GET /api/console), a live feed (GET
// /api/events, SSE), score checks before anything plays, OSC targets, the edge mirror switch, a
// count-in, and the server's log. Every route sits behind the control listener's bearer token;
// bodies are checked by JSON schemas; errors are JSON with a code. Nothing here can crash the show.

import { createTimeline } from '#core/score/timeline.js';
import { loadScoreFile } from '../score-file.js';
import { createLatencyProbe, clock } from '../console/latency-probe.js';
import { createCountIn } from '../console/count-in.js';
import { createAudienceStats } from '../console/audience-stats.js';
import { createAudienceAddress } from '../console/audience-address.js';
import { createLiveFeed } from '../console/live-feed.js';
import { createVoicesFeed } from '../console/voices-feed.js';
import { createLogCursor } from '../console/log-cursor.js';
import { createOscPanel } from './console-osc.js';
import { createEdgePanel } from './console-edge.js';
import { sendError } from '../send-error.js';

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

const MAX_RECENT = 10;

const pathBody = {
  type: 'object',
  required: ['path'],
  additionalProperties: false,
  properties: { path: { type: 'string', minLength: 1, maxLength: 4096 } },
};
const countInBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { beats: { type: 'integer', minimum: 1, maximum: 16 } },
};

/** Summary of a validated score for the console: metadata, sections, length. */
export function scoreSummary(score, path) {
  const timeline = createTimeline(score);
  return {
    id: score.id,
    title: score.title,
    composer: score.composer ?? null,
    bars: score.bars,
    path: path ?? null,
    totalBeats: timeline.totalBeats,
    durationMs: Math.round(timeline.msAt(timeline.totalBeats)),
    tempo: score.tempo[0]?.bpm ?? null,
    meter: score.meter.map((m) => ({ bar: m.bar, beats: m.beats, unit: m.unit })),
    sections: (score.sections ?? []).map((s) => ({
      mark: s.mark,
      name: s.name ?? null,
      bar: s.at.bar,
      beat: s.at.beat ?? 1,
      atMs: Math.round(timeline.msAt(timeline.indexOf(s.at.bar, s.at.beat ?? 1))),
    })),
    cues: (score.cues ?? []).length,
    parts: (score.parts ?? []).map((p) => p.name ?? p.id),
    printedBars: score.printedBars ?? null,
  };
}

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ show: import('../show.js').Show, metrics: import('../metrics.js').Metrics, status: () => any, log: any, osc: any, edge: any, audiencePort: () => number, probeKey: string, consoleHost: ConsoleHost, votes?: any, reactions?: any }} options
 */
export default async function consoleApi(
  app,
  { show, metrics, status, log, osc, edge, audiencePort, probeKey, consoleHost, votes, reactions },
) {
  const startedAt = Date.now();
  /** The server's clock (the one `t` and `position.at` use), as measured by the probe's pings. */
  const serverNow = () => clock() + probe.offset();
  const host = () => consoleHost;
  /** Secrets typed into the console (edge tokens) never leave it again, not even via the log. */
  const secrets = new Set();
  const tell = (change) => {
    try {
      host().onChange?.(change);
    } catch (err) {
      log.warn(`could not save console settings: ${err.message}`);
    }
  };

  // Scores loaded while no host keeps a list (plain `tutti serve`): remembered for this run.
  /** @type {string[]} */
  let sessionRecent = [];
  /** @type {{ path: string, file: string, ok: boolean, problems: any[], at: number } | null} */
  let lastAttempt = null;
  const recentScores = () => {
    const h = host();
    return h.recentScores ? h.recentScores() : sessionRecent;
  };
  const onScore = (next) => {
    sessionRecent = [next.path, ...sessionRecent.filter((p) => p !== next.path)].slice(0, MAX_RECENT);
    tell({ scorePath: next.path });
    countIn.cancel('a new score was loaded');
    broadcast('score', { score: currentScore(), lastAttempt, recentScores: recentScores() });
  };
  show.events.on('score', onScore);

  // ---- audience numbers, sampled once a second while a console looks (console/audience-stats.js) ----
  const probe = createLatencyProbe({ port: audiencePort, key: probeKey });
  const stats = createAudienceStats({ metrics, probe, viewerCounts: () => viewerCounts() });
  let sampler = null;
  let lastLook = 0;

  /** Start sampling when a console first looks; stop after a minute nobody looked. */
  function looked() {
    lastLook = Date.now();
    probe.start();
    if (sampler) return;
    sampler = setInterval(async () => {
      if (feed.size() === 0 && Date.now() - lastLook > 60_000) {
        clearInterval(sampler);
        sampler = null;
        return;
      }
      try {
        broadcast('stats', {
          stats: await stats.sample(),
          viewers: viewerCounts(),
          edge: edgeStatus(),
          osc: oscStatus(),
          transport: transportStatus(),
        });
        const fresh = logView.fresh();
        if (fresh.length) broadcast('log', { entries: fresh });
      } catch (err) {
        log.warn(`console stats: ${err.message}`);
      }
    }, 1000);
    sampler.unref();
  }

  function viewerCounts() {
    const local = show.hub.counts(); // the latency probe is not in these (hub.js)
    const remote = edge.status().remoteViewers ?? null;
    return { local, edge: remote, total: local.total + (remote ?? 0) };
  }

  // ---- the OSC and edge cards (console-osc.js, console-edge.js) ----
  const oscPanel = createOscPanel({ osc, status, log, tell });
  const edgePanel = createEdgePanel({ edge, status, tell, secrets });
  const oscStatus = oscPanel.status;
  const edgeStatus = edgePanel.status;

  // ---- transport and score ----
  const transportStatus = () => {
    const s = status();
    return {
      transport: s.transport,
      position: s.position,
      tempo: s.tempo,
      tempoOverride: s.tempoOverride,
      tempoPercent: s.tempoPercent,
      loop: s.loop,
      epoch: s.epoch,
      seq: s.seq,
      countIn: countIn.active(),
      rehearsal: s.rehearsal,
    };
  };
  const currentScore = () => scoreSummary(show.engine.score(), show.source().path);

  // ---- audience URL and QR code (console/audience-address.js) ----
  const audienceAddress = createAudienceAddress({ audiencePort, boundHost: () => host().audienceHost ?? null });

  // ---- log (console/log-cursor.js) ----
  const logView = createLogCursor({ log, secrets });

  async function snapshot() {
    looked();
    const h = host();
    return {
      now: serverNow(),
      startedAt,
      mode: h.mode,
      settingsPath: h.settingsPath ?? null,
      scoresDir: h.scoresDir ?? null,
      score: currentScore(),
      lastAttempt,
      recentScores: recentScores(),
      transport: transportStatus(),
      audience: await audienceAddress.info(),
      viewers: viewerCounts(),
      stats: stats.latest() ?? (await stats.sample()),
      osc: oscStatus(),
      edge: edgeStatus(),
      log: logView.all(),
      voices: voices.current(),
    };
  }

  // ---- count-in: one bar (or N beats) of clicks to the console, the part pages and the musicians, then play ----
  const countIn = createCountIn({ show, tell: (data) => broadcast('countin', data) });
  const onTransport = () => broadcast('transport', transportStatus());
  show.events.on('transport', onTransport);
  // Rehearsal mode (README.md): every console shows at once whether the hall sees the show.
  const onRehearsal = () => broadcast('transport', transportStatus());
  show.events.on('rehearsal', onRehearsal);

  // ---- live feed: Server-Sent Events over the authenticated control listener (console/live-feed.js) ----
  const feed = createLiveFeed({ serverNow });
  const broadcast = (event, data) => feed.broadcast(event, data);
  const onBeat = (beat) => broadcast('beat', beat);
  // Prompts and reactions (README.md, "Audience voices"): a `voices` event whenever they change.
  const voices = createVoicesFeed({ show, votes, reactions, broadcast });
  show.events.on('beat', onBeat);

  app.addHook('onClose', async () => {
    show.events.off('score', onScore);
    show.events.off('transport', onTransport);
    show.events.off('rehearsal', onRehearsal);
    show.events.off('beat', onBeat);
    voices.close();
    clearInterval(sampler);
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

  app.post('/api/score/validate', { schema: { body: pathBody } }, async (request) => {
    const { path } = /** @type {any} */ (request.body);
    const result = await loadScoreFile(path);
    lastAttempt = { path, file: result.file, ok: result.ok, problems: result.problems, at: Date.now() };
    return {
      ok: result.ok,
      file: result.file,
      problems: result.problems,
      score: result.ok ? scoreSummary(result.score, result.file) : null,
    };
  });

  oscPanel.routes(app);
  edgePanel.routes(app);

  app.post('/api/console/count-in', { schema: { body: countInBody } }, async (request, reply) => {
    const st = show.engine.status();
    if (st.transport === 'playing') return sendError(reply, 'ALREADY_PLAYING');
    if (countIn.active()) return sendError(reply, 'COUNTING_IN');
    countIn.start(/** @type {any} */ (request.body)?.beats ?? st.position.beats);
    return transportStatus();
  });

  app.delete('/api/console/count-in', async () => {
    countIn.cancel('cancelled from the console');
    return transportStatus();
  });
}
