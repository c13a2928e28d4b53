// The console's API, beyond README.md's "Control API" table (which lives in control.js): one
// snapshot of everything the composer's console shows (GET /api/console), a live feed (GET
// /api/events, SSE), score checks before anything plays, OSC targets, the edge mirror switch, a
// count-in, and the server's log. Every route sits behind the control listener's bearer token;
// bodies are checked by JSON schemas; errors are JSON with a code. Nothing here can crash the show.

import { createTimeline } from '#core/score/timeline.js';
import { loadScoreFile } from '../score-file.js';
import { edgePublishUrl } from '../edge/edge-url.js';
import { createLatencyProbe, clock } from '../console/latency-probe.js';
import { createCountIn } from '../console/count-in.js';
import { createAudienceStats } from '../console/audience-stats.js';
import { createAudienceAddress } from '../console/audience-address.js';
import { createLiveFeed } from '../console/live-feed.js';
import { createVoicesFeed } from '../console/voices-feed.js';
import { OSC_MODES, MAX_OFFSET_MS, formatTarget } from '../osc-target.js';

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

const PING_TIMEOUT_MS = 3000;
const MAX_RECENT = 10;

const hostPattern = '^[^\\s/\\\\?#@]+$';
const oscTargetBody = {
  type: 'object',
  required: ['host', 'port'],
  additionalProperties: false,
  properties: {
    host: { type: 'string', minLength: 1, maxLength: 253, pattern: hostPattern },
    port: { type: 'integer', minimum: 1, maximum: 65535 },
  },
};
/** A target with its delivery settings (osc-target.js): adding one, or changing one. */
const oscTargetSettingsBody = {
  ...oscTargetBody,
  properties: {
    ...oscTargetBody.properties,
    mode: { type: 'string', enum: [...OSC_MODES] },
    offsetMs: { type: 'number', minimum: -MAX_OFFSET_MS, maximum: MAX_OFFSET_MS },
  },
};
const edgeBody = {
  type: 'object',
  required: ['url', 'token'],
  additionalProperties: false,
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 2048 },
    token: { type: 'string', minLength: 1, maxLength: 4096 },
  },
};
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
  const redact = (text) => {
    let out = String(text);
    for (const s of secrets) out = out.split(s).join('***');
    return out;
  };
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
        const fresh = newLogEntries();
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

  // ---- OSC ----
  /** @type {Map<string, { ok: boolean, at: number, error: string | null }>} */
  const pings = new Map();
  const targetKey = (t) => `${t.host}:${t.port}`;
  const oscStatus = () => ({
    targets: osc.list().map((t) => ({ ...t, lastPing: pings.get(targetKey(t)) ?? null })),
    in: status().osc?.in ?? null,
  });

  // ---- edge ----
  const edgeStatus = () => ({ ...edge.status(), publicUrl: edge.publicUrl(), maxClients: status().maxClients ?? null });

  // ---- transport and score ----
  const transportStatus = () => {
    const s = status();
    return {
      transport: s.transport,
      position: s.position,
      tempo: s.tempo,
      tempoOverride: s.tempoOverride,
      epoch: s.epoch,
      seq: s.seq,
      countIn: countIn.active(),
    };
  };
  const currentScore = () => scoreSummary(show.engine.score(), show.source().path);

  // ---- audience URL and QR code (console/audience-address.js) ----
  const audienceAddress = createAudienceAddress({ audiencePort, boundHost: () => host().audienceHost ?? null });

  // ---- log ----
  // log.recent() hands out the same entry objects each time: the last one seen marks the cursor.
  let lastSeen = null;
  const redacted = (entries) => entries.map((e) => ({ t: e.t, level: e.level, msg: redact(e.msg) }));
  function newLogEntries() {
    const entries = log.recent();
    const at = lastSeen ? entries.lastIndexOf(lastSeen) : -1;
    const fresh = at >= 0 ? entries.slice(at + 1) : entries.filter((e) => !lastSeen || e.t >= lastSeen.t);
    if (entries.length) lastSeen = entries[entries.length - 1];
    return redacted(fresh);
  }

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
      log: redacted(log.recent()),
      voices: voices.current(),
    };
  }

  // ---- count-in: one bar (or N beats) of clicks to the console and the musicians, then play ----
  const countIn = createCountIn({ show, osc, serverNow, tell: (data) => broadcast('countin', data) });
  const onTransport = (state) => {
    if (countIn.active() && state !== 'stopped') countIn.cancel(`transport changed to ${state}`);
    broadcast('transport', transportStatus());
  };
  show.events.on('transport', onTransport);

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
    if (feed.full()) return reply.code(429).send(feed.fullBody());
    const first = await snapshot();
    reply.hijack();
    feed.add(reply.raw, first);
    newLogEntries(); // the hello carried the log so far
  });

  app.get('/api/log', async () => ({ entries: redacted(log.recent()) }));

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

  /** What the host saves (the desktop app's settings): each target, with its mode and offset when not the defaults. */
  const savedTargets = () =>
    osc.list().map((t) => ({
      host: t.host,
      port: t.port,
      ...(t.mode !== 'plain' && { mode: t.mode }),
      ...(t.offsetMs !== 0 && { offsetMs: t.offsetMs }),
    }));
  const described = (t) => `${formatTarget(t)} (${t.mode}, offset ${t.offsetMs} ms)`;

  app.post('/api/osc/targets', { schema: { body: oscTargetSettingsBody } }, async (request) => {
    const { host: address, port, mode = 'plain', offsetMs = 0 } = /** @type {any} */ (request.body);
    osc.add({ host: address, port, mode, offsetMs });
    log.info(`OSC target added: ${described({ host: address, port, mode, offsetMs })}`);
    tell({ oscTargets: savedTargets() });
    return oscStatus();
  });

  // The console's mode and offset fields: change a target in place (its counters stay).
  app.patch('/api/osc/targets', { schema: { body: oscTargetSettingsBody } }, async (request, reply) => {
    const { host: address, port, mode, offsetMs } = /** @type {any} */ (request.body);
    const changed = osc.update({ host: address, port }, { mode, offsetMs });
    if (!changed)
      return reply.code(404).send({ error: 'NO_SUCH_TARGET', message: `${formatTarget({ host: address, port })} is not an OSC target` });
    log.info(`OSC target changed: ${described(changed)}`);
    tell({ oscTargets: savedTargets() });
    return oscStatus();
  });

  app.delete('/api/osc/targets', { schema: { body: oscTargetBody } }, async (request, reply) => {
    const { host: address, port } = /** @type {any} */ (request.body);
    if (!osc.remove({ host: address, port }))
      return reply.code(404).send({ error: 'NO_SUCH_TARGET', message: `${address}:${port} is not an OSC target` });
    pings.delete(targetKey({ host: address, port }));
    log.info(`OSC target removed: ${address}:${port}`);
    tell({ oscTargets: savedTargets() });
    return oscStatus();
  });

  app.post('/api/osc/ping', { schema: { body: oscTargetBody } }, async (request) => {
    const target = /** @type {any} */ (request.body);
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve('timeout'), PING_TIMEOUT_MS);
    });
    const outcome = await Promise.race([osc.ping(target).catch(() => ({ sent: false, rttMs: null })), timeout]);
    clearTimeout(timer);
    const ok = outcome !== 'timeout' && outcome.sent;
    const rttMs = outcome !== 'timeout' ? outcome.rttMs : null;
    const result = {
      ok,
      at: Date.now(),
      rttMs,
      error: ok
        ? null
        : outcome === 'timeout'
          ? 'no answer from the network stack within 3 s (name lookup?)'
          : `could not send to ${target.host}:${target.port}`,
    };
    pings.set(targetKey(target), result);
    return { target, ...result };
  });

  app.post('/api/edge', { schema: { body: edgeBody } }, async (request, reply) => {
    const { url, token } = /** @type {any} */ (request.body);
    const checked = edgePublishUrl(url);
    if (!checked.url) return reply.code(400).send({ error: 'BAD_EDGE_URL', message: checked.reason.replace('--edge', 'the edge URL') });
    secrets.add(token);
    await edge.enable(url, token);
    // The desktop app keeps the token encrypted (app/main/edge-token-store.js); other hosts drop it.
    tell({ edgeUrl: edge.publicUrl(), edgeToken: token });
    return edgeStatus();
  });

  // After "replaced" (another venue server took the edge over) the uplink waits for this.
  app.post('/api/edge/resume', async (_request, reply) => {
    if (!edge.status().enabled)
      return reply.code(409).send({ error: 'EDGE_OFF', message: 'the edge mirror is off; switch it on with POST /api/edge' });
    edge.resume();
    return edgeStatus();
  });

  app.delete('/api/edge', async () => {
    edge.disable();
    tell({ edgeUrl: null, edgeToken: null });
    return edgeStatus();
  });

  app.post('/api/console/count-in', { schema: { body: countInBody } }, async (request, reply) => {
    const st = show.engine.status();
    if (st.transport === 'playing')
      return reply
        .code(409)
        .send({ error: 'ALREADY_PLAYING', message: 'the show is already playing; a count-in starts a stopped or paused show' });
    if (countIn.active()) return reply.code(409).send({ error: 'COUNTING_IN', message: 'a count-in is already running' });
    countIn.start(/** @type {any} */ (request.body)?.beats ?? st.position.beats);
    return transportStatus();
  });

  app.delete('/api/console/count-in', async () => {
    countIn.cancel('cancelled from the console');
    return transportStatus();
  });
}
