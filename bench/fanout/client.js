// Benchmark worker: up to ~9,000 audience viewers in one process (open files are capped at
// 20,000 per process here). Transports: ws, sse, poll (every pollIntervalMs, like ZScore) and
// longpoll (?wait=). For every envelope it records push latency (receive time − envelope `t`,
// corrected by a clock offset measured against GET /time), checks seq continuity per viewer
// (gaps = lost, seq going back = out of order), and counts TCP bytes received.
//
// Driven by the runner (run.js) with commands: init → connect → start → close-window →
// progress* → report. Only ever connects to the URL it is given (127.0.0.1).

import http from 'node:http';
import { performance, monitorEventLoopDelay } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { createHistogram } from '../lib/histogram.js';
import { serveParent } from '../lib/child-ipc.js';
import { readEnvelopeHead, HEAD_CHARS } from '#core/protocol/envelope-head.js';

export const MAX_CLIENTS_PER_PROCESS = 9000;
const CONNECT_TIMEOUT_MS = 20_000;
const CONNECT_ATTEMPTS = 3;
/** Every VERIFY_EVERY-th message is fully parsed to check that the quick head parse agrees. */
const VERIFY_EVERY = 64;

/** Wall clock with sub-millisecond resolution (same basis as Date.now()). */
const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @typedef {object} Config
 * @property {'ws' | 'lean' | 'sse' | 'poll' | 'longpoll'} transport
 * @property {string} audienceUrl http://127.0.0.1:PORT
 * @property {string} wsUrl
 * @property {number} count viewers in this process
 * @property {number} batch connections opened at once while ramping
 * @property {number} pollIntervalMs
 * @property {number} longPollWaitMs
 *
 * @typedef {object} Conn
 * @property {number} lastSeq
 * @property {boolean} open
 * @property {boolean} closed
 * @property {number} winMsgs
 * @property {number} bytes0 bytesRead at window start (streams)
 * @property {number} bytes1
 * @property {number} httpBytes bytes of poll responses (polls)
 * @property {any} socket
 * @property {any} [ws]
 */

/** @type {Config} */
let cfg;
let offset = 0; // server clock − our clock (ms)
let rtt = 0;
let stopping = false;
/** After this time (our clock) the ramp opens no new connections and retries nothing. */
let rampDeadline = Infinity;
/** @type {Conn[]} */
const conns = [];
const totals = { failed: 0, attempts: 0, errors: 0, closed: 0, outOfOrder: 0, gaps: 0, malformed: 0, verified: 0, messages: 0 };
/** @type {Record<string, number>} */
const closeCodes = {};
let messageCounter = 0;
/** Deliveries kept per viewer before the window opens (see onEnvelope). */
const EARLY_KEPT = 8;
const LOOP_RESOLUTION_MS = 5;
// Client event-loop delay: shows when the load clients themselves are saturated.
const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });

/**
 * @typedef {{ fromSeq: number, toSeq: number | null, hist: ReturnType<typeof createHistogram>, msgs: number, snapshots: number,
 *   gaps: number, outOfOrder: number, closed: number, startedAt: number, closedAt: number }} Window
 */
/** @type {Window | null} */
let win = null;

function newConn() {
  /** @type {Conn} */
  const conn = { lastSeq: -1, open: false, closed: false, winMsgs: 0, bytes0: 0, bytes1: 0, httpBytes: 0, socket: null, early: [] };
  conns.push(conn);
  return conn;
}

/** One envelope arrived for a viewer: continuity and latency bookkeeping. */
function onEnvelope(conn, seq, t, snapshot, received) {
  totals.messages += 1;
  const last = conn.lastSeq;
  if (last >= 0 && seq <= last) {
    totals.outOfOrder += 1;
    if (win) win.outOfOrder += 1;
    return;
  }
  if (last >= 0 && seq > last + 1) {
    totals.gaps += seq - last - 1;
    if (win) {
      // Only the missing seqs inside the window (fromSeq, toSeq] count for this window.
      const upper = win.toSeq === null ? seq - 1 : Math.min(seq - 1, win.toSeq);
      win.gaps += Math.max(0, upper - Math.max(last, win.fromSeq));
    }
  }
  conn.lastSeq = seq;
  if (!win) {
    // Before the window opens: remember the last few, because the runner reads the window's
    // first seq from the server and an update after it can reach this process before the
    // 'start' message does (seen on a loaded machine); start() counts those.
    conn.early.push({ seq, latency: received + offset - t, snapshot });
    if (conn.early.length > EARLY_KEPT) conn.early.shift();
    return;
  }
  if (seq > win.fromSeq && (win.toSeq === null || seq <= win.toSeq)) countInWindow(conn, received + offset - t, snapshot);
}

/** @param {Conn} conn @param {number} latency @param {boolean} snapshot */
function countInWindow(conn, latency, snapshot) {
  if (!win) return;
  win.hist.record(latency);
  win.msgs += 1;
  if (snapshot) win.snapshots += 1;
  conn.winMsgs += 1;
}

/** Parse the head of a text envelope; every so often check it against a full JSON.parse. */
function onText(conn, text, received) {
  const head = readEnvelopeHead(text.length > HEAD_CHARS ? text.slice(0, HEAD_CHARS) : text);
  if (!head) {
    totals.malformed += 1;
    return;
  }
  if (++messageCounter % VERIFY_EVERY === 0) verify(text, head);
  onEnvelope(conn, head.seq, head.t, head.type === 'snapshot', received);
}

function verify(text, head) {
  totals.verified += 1;
  try {
    const e = JSON.parse(text);
    if (e.seq !== head.seq || e.t !== head.t || e.type !== head.type || e.data === undefined) totals.malformed += 1;
  } catch {
    totals.malformed += 1;
  }
}

function markClosed(conn, code) {
  if (!conn.open) return;
  conn.open = false;
  conn.closed = true;
  if (stopping) return;
  totals.closed += 1;
  if (win) win.closed += 1;
  closeCodes[code] = (closeCodes[code] ?? 0) + 1;
}

// ---- WebSocket ----

function openWs(conn) {
  return new Promise((resolve) => {
    // Default client options: the client offers permessage-deflate; both servers decline it.
    const ws = new WebSocket(cfg.wsUrl, { handshakeTimeout: CONNECT_TIMEOUT_MS });
    let settled = false;
    ws.on('open', () => {
      settled = true;
      conn.open = true;
      conn.ws = ws;
      conn.socket = /** @type {any} */ (ws)._socket;
      resolve(true);
    });
    ws.on('message', (data, isBinary) => {
      const received = clock();
      if (isBinary) {
        totals.malformed += 1;
        return;
      }
      const buf = /** @type {Buffer} */ (data);
      const head = readEnvelopeHead(buf.toString('latin1', 0, Math.min(buf.length, HEAD_CHARS)));
      if (!head) {
        totals.malformed += 1;
        return;
      }
      if (++messageCounter % VERIFY_EVERY === 0) verify(buf.toString(), head);
      onEnvelope(conn, head.seq, head.t, head.type === 'snapshot', received);
    });
    ws.on('error', () => {
      totals.errors += 1;
    });
    ws.on('close', (code) => {
      if (!settled) {
        settled = true;
        resolve(false);
      } else markClosed(conn, `ws:${code}`);
    });
  });
}

// ---- Server-Sent Events (raw http; events split on blank lines) ----

function openSse(conn) {
  return new Promise((resolve) => {
    let settled = false;
    const done = (ok) => {
      if (!settled) {
        settled = true;
        resolve(ok);
      }
    };
    const req = http.get(`${cfg.audienceUrl}/sse`, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        done(false);
        return;
      }
      conn.open = true;
      conn.socket = res.socket;
      done(true);
      res.setEncoding('utf8');
      let pending = '';
      res.on('data', (chunk) => {
        const received = clock();
        pending += chunk;
        let start = 0;
        let end;
        while ((end = pending.indexOf('\n\n', start)) >= 0) {
          onSseEvent(conn, pending.slice(start, end), received);
          start = end + 2;
        }
        pending = pending.slice(start);
      });
      res.on('close', () => markClosed(conn, 'sse:closed'));
    });
    req.setTimeout(CONNECT_TIMEOUT_MS, () => {
      if (!settled) req.destroy(new Error('connect timeout'));
    });
    req.on('error', () => {
      totals.errors += 1;
      if (settled) markClosed(conn, 'sse:error');
      done(false);
    });
  });
}

function onSseEvent(conn, block, received) {
  // Comments (":" heartbeats) and the "retry:" preamble carry no data.
  const at = block.startsWith('data:') ? 0 : block.indexOf('\ndata:') + 1;
  if (at === 0 && !block.startsWith('data:')) return;
  let data = block.slice(at + 5);
  if (data.startsWith(' ')) data = data.slice(1);
  const nl = data.indexOf('\n');
  onText(conn, nl >= 0 ? data.slice(0, nl) : data, received);
}

// ---- Polling (interval, or long-poll with wait) ----

const pollAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: MAX_CLIENTS_PER_PROCESS, scheduling: 'fifo' });

/** GET a path; resolves with the body, the receive time and the bytes read for this response. */
function get(path, timeoutMs) {
  return new Promise((resolve, reject) => {
    let startBytes = 0;
    const req = http.get(`${cfg.audienceUrl}${path}`, { agent: pollAgent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const received = clock();
        const bytes = /** @type {any} */ (req.socket)?.bytesRead - startBytes;
        if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}`));
        else resolve({ body: Buffer.concat(chunks).toString(), received, bytes: Number.isFinite(bytes) ? bytes : 0 });
      });
      res.on('error', reject);
    });
    req.on('socket', (socket) => {
      startBytes = socket.bytesRead;
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

function openPoll(conn) {
  const long = cfg.transport === 'longpoll';
  return new Promise((resolve) => {
    let first = true;
    let attempts = 0;
    const loop = async () => {
      while (!stopping) {
        const sent = clock();
        const path = conn.lastSeq < 0 ? '/poll' : `/poll?since=${conn.lastSeq}${long ? `&wait=${cfg.longPollWaitMs}` : ''}`;
        try {
          const { body, received, bytes } = await get(path, (long ? cfg.longPollWaitMs : 0) + CONNECT_TIMEOUT_MS);
          if (win && win.closedAt === 0) conn.httpBytes += bytes;
          for (const e of JSON.parse(body)) {
            if (++messageCounter % VERIFY_EVERY === 0) totals.verified += 1;
            if (typeof e?.seq !== 'number' || typeof e?.t !== 'number') totals.malformed += 1;
            else onEnvelope(conn, e.seq, e.t, e.type === 'snapshot', received);
          }
          if (first) {
            first = false;
            conn.open = true;
            resolve(true);
            // Spread the pollers evenly over the interval, as real phones would be.
            if (!long) await sleep(Math.random() * cfg.pollIntervalMs);
            continue;
          }
        } catch {
          totals.errors += 1;
          if (first && ++attempts >= CONNECT_ATTEMPTS) {
            resolve(false);
            return;
          }
          await sleep(500);
          continue;
        }
        if (!long) {
          const wait = sent + cfg.pollIntervalMs - clock();
          if (wait > 0) await sleep(wait);
        }
      }
    };
    loop();
  });
}

// ---- ramp, clock sync, reports ----

// lean: the same WebSocket client on /ws?stream=lean (the URL comes from the server worker).
const openers = { ws: openWs, lean: openWs, sse: openSse, poll: openPoll, longpoll: openPoll };

async function openWithRetry() {
  const conn = newConn();
  const open = openers[cfg.transport];
  for (let attempt = 1; attempt <= CONNECT_ATTEMPTS && !stopping && (attempt === 1 || clock() < rampDeadline); attempt++) {
    totals.attempts += 1;
    if (await open(conn)) return true;
    if (cfg.transport === 'poll' || cfg.transport === 'longpoll') break; // openPoll retries itself
    await sleep(200 * attempt);
  }
  totals.failed += 1;
  return false;
}

/** Best-of-N request to GET /time: offset = server time − midpoint of the round trip. */
async function syncClock(samples = 15) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let best = { rtt: Infinity, offset: 0 };
  try {
    for (let i = 0; i < samples; i++) {
      const c0 = clock();
      const body = await new Promise((resolve, reject) => {
        const req = http.get(`${cfg.audienceUrl}/time`, { agent }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(text));
        });
        req.setTimeout(5000, () => req.destroy(new Error('GET /time timed out')));
        req.on('error', reject);
      });
      const c1 = clock();
      const s = JSON.parse(/** @type {string} */ (body)).s;
      if (c1 - c0 < best.rtt) best = { rtt: c1 - c0, offset: s - (c0 + c1) / 2 };
    }
  } finally {
    agent.destroy();
  }
  return best;
}

const bytesOf = (conn) => (conn.socket ? conn.socket.bytesRead : 0);

serveParent(
  {
    /** @param {Config} config */
    async init(config) {
      if (config.count > MAX_CLIENTS_PER_PROCESS)
        throw new Error(`at most ${MAX_CLIENTS_PER_PROCESS} clients per process (asked ${config.count})`);
      cfg = config;
      const sync = await syncClock();
      offset = sync.offset;
      rtt = sync.rtt;
      return { offsetMs: offset, rttMs: rtt };
    },

    /**
     * Open every viewer, `batch` at a time, so the server never sees a SYN flood. A server that
     * cannot keep up does not hang the run: after `deadlineMs` no new batch starts (the viewers
     * not tried are reported as `skipped`).
     */
    async connect({ deadlineMs }) {
      const started = clock();
      rampDeadline = started + deadlineMs;
      let open = 0;
      let tried = 0;
      for (let i = 0; i < cfg.count && !stopping && clock() < rampDeadline; i += cfg.batch) {
        const n = Math.min(cfg.batch, cfg.count - i);
        tried += n;
        const results = await Promise.all(Array.from({ length: n }, () => openWithRetry()));
        open += results.filter(Boolean).length;
      }
      return { open, failed: totals.failed, skipped: cfg.count - tried, seconds: (clock() - started) / 1000 };
    },

    /** Open the measurement window: envelopes with seq > fromSeq count. */
    start({ fromSeq }) {
      win = {
        fromSeq,
        toSeq: null,
        hist: createHistogram(),
        msgs: 0,
        snapshots: 0,
        gaps: 0,
        outOfOrder: 0,
        closed: 0,
        startedAt: clock(),
        closedAt: 0,
      };
      for (const conn of conns) {
        for (const e of conn.early) if (e.seq > fromSeq) countInWindow(conn, e.latency, e.snapshot);
        conn.early = [];
      }
      for (const conn of conns) {
        conn.winMsgs = 0;
        conn.httpBytes = 0;
        conn.bytes0 = bytesOf(conn);
      }
      loopDelay.reset();
      loopDelay.enable();
      return { open: conns.filter((c) => c.open).length };
    },

    /** The server published its last envelope of the window: seq toSeq. Bytes stop counting here. */
    'close-window'({ toSeq }) {
      const w = /** @type {Window} */ (win);
      w.toSeq = toSeq;
      w.closedAt = clock();
      for (const conn of conns) conn.bytes1 = bytesOf(conn);
      loopDelay.disable();
      return {};
    },

    /** How far the slowest open viewer has got (the runner waits for toSeq before reporting). */
    progress() {
      let minLastSeq = Infinity;
      let open = 0;
      for (const conn of conns) {
        if (!conn.open) continue;
        open += 1;
        if (conn.lastSeq < minLastSeq) minLastSeq = conn.lastSeq;
      }
      return { open, minLastSeq: open ? minLastSeq : null };
    },

    report() {
      const w = /** @type {Window} */ (win);
      const toSeq = /** @type {number} */ (w.toSeq);
      let behind = 0;
      let behindViewers = 0;
      let minMsgs = Infinity;
      let maxMsgs = 0;
      let bytes = 0;
      let open = 0;
      for (const conn of conns) {
        if (!conn.open && !conn.closed) continue; // never connected
        if (conn.open) open += 1;
        // Seqs of the window the viewer never got (not counted as gaps because nothing came after).
        const missing = Math.max(0, toSeq - Math.max(conn.lastSeq, w.fromSeq));
        if (missing > 0) {
          behind += missing;
          behindViewers += 1;
        }
        minMsgs = Math.min(minMsgs, conn.winMsgs);
        maxMsgs = Math.max(maxMsgs, conn.winMsgs);
        bytes += conn.httpBytes + Math.max(0, conn.bytes1 - conn.bytes0);
      }
      return {
        count: cfg.count,
        open,
        fromSeq: w.fromSeq,
        toSeq,
        seconds: (w.closedAt - w.startedAt) / 1000,
        latency: w.hist.toJSON(),
        messages: w.msgs,
        snapshots: w.snapshots,
        gaps: w.gaps,
        behind,
        behindViewers,
        outOfOrder: w.outOfOrder,
        closedInWindow: w.closed,
        perViewerMessages: { min: Number.isFinite(minMsgs) ? minMsgs : 0, max: maxMsgs },
        bytes,
        totals: { ...totals },
        closeCodes,
        clock: { offsetMs: offset, rttMs: rtt },
        // The histogram includes the sampling period itself.
        eventLoopDelayMs: {
          p99: Math.max(0, loopDelay.percentile(99) / 1e6 - LOOP_RESOLUTION_MS),
          max: Math.max(0, loopDelay.max / 1e6 - LOOP_RESOLUTION_MS),
        },
      };
    },
  },
  {
    onExit: () => {
      stopping = true;
    },
  },
);
