// Shared by the edge suites: a real worker on local workerd, and small clients that record
// every frame so tests can wait for exactly what they expect (always with a deadline).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { afterAll, beforeAll } from '@jest/globals';
import { startLocalEdge } from '../../edge-worker/scripts/local-edge.js';
import { createEnvelope } from '#core/protocol/envelope.js';
import { ALIVE_FRAME } from '#core/protocol/publisher.js';
import { createSseParser } from '#core/protocol/sse-parser.js';
import { applyEnvelope } from '#core/stream/state-stream.js';

/**
 * Start the worker with a fresh persistence folder (reused by restart()).
 * @param {{ vars?: Record<string, string | number>, persistDir?: string, port?: number, direct?: boolean }} [options]
 *   direct: talk to workerd itself, not through wrangler's dev proxy (see local-edge.js)
 */
export async function startEdge({ vars = {}, persistDir, port = 0, direct = false } = {}) {
  const dir = persistDir ?? mkdtempSync(join(tmpdir(), 'tutti-edge-'));
  const token = randomBytes(16).toString('hex');
  const logs = [];
  const log = (line) => {
    logs.push(line);
    if (logs.length > 500) logs.shift();
  };
  let edge = await startLocalEdge({ token, persistDir: dir, vars, log, port, direct });
  return {
    get url() {
      return edge.url;
    },
    get wsUrl() {
      return edge.url.replace(/^http/, 'ws');
    },
    token,
    dir,
    logs,
    /** Stop workerd and start it again on the same storage (same token). */
    async restart() {
      await edge.stop();
      edge = await startLocalEdge({ token, persistDir: dir, vars, log, port, direct });
    },
    /** Stop workerd; start() brings it back on the same port and storage. */
    async pause() {
      await edge.stop();
    },
    async resume() {
      edge = await startLocalEdge({ token, persistDir: dir, vars, log, port, direct });
    },
    async stop({ keepDir = false } = {}) {
      await edge.stop();
      if (!keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One edge for a whole test file, on the direct runtime (one workerd, `direct` above): started
 * before its tests, stopped after. Read `.edge` inside the tests.
 * @param {{ vars?: Record<string, string | number> }} [options]
 * @returns {{ edge: any }}
 */
export function edgeForSuite(options = {}) {
  const suite = { edge: null };
  beforeAll(async () => {
    suite.edge = await startEdge({ direct: true, ...options });
  }, 60_000);
  afterAll(async () => {
    await suite.edge?.stop();
  });
  return suite;
}

/**
 * A WebSocket that records frames; `next(pred)` resolves with the first unread frame matching.
 * @param {string} url
 * @param {import('ws').ClientOptions} [options]
 */
export function openSocket(url, options = {}) {
  const ws = new WebSocket(url, { perMessageDeflate: false, ...options });
  const frames = [];
  const raw = [];
  const waiters = new Set();
  let read = 0;
  const state = { shard: null, status: null, headers: null, body: '', closeCode: null, closeReason: null };
  ws.on('upgrade', (res) => {
    state.shard = res.headers['x-tutti-shard'] ?? null;
  });
  ws.on('unexpected-response', (_req, res) => {
    state.status = res.statusCode;
    state.headers = res.headers;
    res.setEncoding('utf8');
    res.on('data', (chunk) => {
      state.body += chunk;
    });
    res.on('end', () => ws.terminate());
    res.on('error', () => ws.terminate());
  });
  ws.on('message', (data) => {
    // The edge's answer to a publisher's sign of life (see openPublisher) is not a frame to read.
    if (String(data) === ALIVE_FRAME) return;
    raw.push(String(data));
    frames.push(JSON.parse(String(data)));
    for (const w of waiters) w();
  });
  const closed = new Promise((resolve) => {
    ws.on('close', (code, reason) => {
      state.closeCode = code;
      state.closeReason = String(reason);
      for (const w of waiters) w();
      resolve(code);
    });
  });
  ws.on('error', () => {});
  const opened = new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('close', () => reject(new Error(`socket closed before opening (HTTP ${state.status ?? '?'})`)));
  });
  opened.catch(() => {});

  /**
   * @param {(frame: any) => boolean} [predicate]
   * @param {number} [timeoutMs]
   */
  function next(predicate = () => true, timeoutMs = 10_000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        while (read < frames.length) {
          const frame = frames[read];
          read += 1;
          if (predicate(frame)) {
            cleanup();
            resolve(frame);
            return;
          }
        }
        if (state.closeCode !== null) {
          cleanup();
          reject(new Error(`socket closed (${state.closeCode} ${state.closeReason}) while waiting`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames.slice(-5))}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  }

  return {
    ws,
    frames,
    raw,
    state,
    opened,
    closed,
    next,
    send: (value) => ws.send(typeof value === 'string' ? value : JSON.stringify(value)),
    close() {
      if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
      ws.close();
      return closed;
    },
  };
}

/** A viewer on /ws; resolves once open. */
export async function openViewer(edge) {
  const viewer = openSocket(`${edge.wsUrl}/ws`);
  await viewer.opened;
  return viewer;
}

/** What a live publisher sends every second (docs/reference/publisher-protocol.md#venue-status). */
export { ALIVE_FRAME };

/**
 * A raw publisher on /publish; resolves with the socket and the hello frame. Like the real
 * uplink it sends a sign of life every `aliveMs` (the hello's), unless `alive: false` (a
 * publisher that hangs).
 * @param {any} edge
 * @param {string} [token]
 * @param {{ alive?: boolean, address?: string }} [options] address: publish from it (fromAddress)
 */
export async function openPublisher(edge, token = edge.token, { alive = true, address } = {}) {
  const publisher = openSocket(`${edge.wsUrl}/publish`, { headers: { authorization: `Bearer ${token}`, ...fromAddress(address) } });
  await publisher.opened;
  const hello = await publisher.next((f) => f.type === 'hello');
  if (alive && hello.aliveMs) {
    const timer = setInterval(() => {
      if (publisher.ws.readyState === WebSocket.OPEN) publisher.ws.send(ALIVE_FRAME);
    }, hello.aliveMs);
    publisher.ws.once('close', () => clearInterval(timer));
  }
  return { publisher, hello };
}

export const snapshot = (epoch, seq, data) => createEnvelope('snapshot', epoch, seq, Date.now(), data);
export const delta = (epoch, seq, data) => createEnvelope('delta', epoch, seq, Date.now(), data);

/**
 * Send one frame and wait for the edge's reply to it.
 * @param {ReturnType<typeof openSocket>} publisher
 * @param {unknown} frame
 */
export async function publish(publisher, frame) {
  publisher.send(frame);
  return publisher.next((f) => f.type !== 'hello');
}

/**
 * Read an SSE stream until `count` events arrived (or the deadline), then abort it.
 * @param {string} url
 * @param {{ count: number, headers?: Record<string, string>, timeoutMs?: number, onOpen?: () => void }} options
 */
export async function readSse(url, { count, headers = {}, timeoutMs = 10_000, onOpen }) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const events = [];
  let contentType = null;
  try {
    const res = await fetch(url, { headers, signal: controller.signal });
    contentType = res.headers.get('content-type');
    onOpen?.();
    const decoder = new TextDecoder();
    const parser = createSseParser((event) => events.push({ id: event.id ?? undefined, data: JSON.parse(event.data) }));
    for await (const chunk of res.body) {
      parser.push(decoder.decode(chunk, { stream: true }));
      if (events.length >= count) break;
    }
  } catch (err) {
    if (err.name !== 'AbortError') throw err;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return { events, contentType };
}

/**
 * Poll a condition until it holds (bounded).
 * @param {() => Promise<boolean> | boolean} condition
 * @param {{ timeoutMs?: number, intervalMs?: number, what?: string | (() => string) }} [options]
 *   what: a function is read at the timeout (e.g. to show a process's output up to then)
 */
export async function waitFor(condition, { timeoutMs = 10_000, intervalMs = 50, what = 'condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
}

/**
 * The root's view of the show (GET /healthz?deep=1, which needs the publish token).
 * @param {any} edge
 * @param {string} [base] '/s/<show>' for a named show
 */
export async function showStats(edge, base = '') {
  const res = await fetch(`${edge.url}${base}/healthz?deep=1`, { headers: { authorization: `Bearer ${edge.token}` } });
  return (await res.json()).show;
}

/**
 * Headers that make a request come from `address` as the Worker sees it: locally Miniflare keeps
 * a CF-Connecting-IP the client sent (on Cloudflare only Cloudflare sets it), so one test plays
 * many internet addresses. No address: loopback, exempt from per-address limits.
 * @param {string | undefined} address
 */
export const fromAddress = (address) => (address ? { 'cf-connecting-ip': address } : {});

/**
 * Join as a viewer (POST /session): the signed session a POST /vote must carry.
 * @param {any} edge
 * @param {string} device
 * @param {{ address?: string, base?: string }} [options]
 * @returns {Promise<{ status: number, session: string | null }>}
 */
export async function joinSession(edge, device, { address, base = '' } = {}) {
  const res = await fetch(`${edge.url}${base}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...fromAddress(address) },
    body: JSON.stringify({ device }),
  });
  const body = await res.json().catch(() => ({}));
  return { status: res.status, session: body.session ?? null };
}

/**
 * POST /vote as an SSE/poll viewer does: joins first (unless given a session), then votes.
 * @param {any} edge
 * @param {{ key: string, option: string, device: string }} vote
 * @param {{ address?: string, base?: string, session?: string | null }} [options]
 * @returns {Promise<Response>}
 */
export async function postVote(edge, vote, { address, base = '', session } = {}) {
  const token = session === undefined ? (await joinSession(edge, vote.device, { address, base })).session : session;
  return fetch(`${edge.url}${base}/vote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-tutti-session': token } : {}), ...fromAddress(address) },
    body: JSON.stringify(vote),
  });
}

/**
 * A state as the venue published it: without the `venue` field the edge merges in
 * (docs/reference/publisher-protocol.md#venue-status).
 * @param {Record<string, unknown> | null | undefined} state
 */
export function withoutVenue(state) {
  if (!state || typeof state !== 'object') return state;
  const rest = { ...state };
  delete rest.venue;
  return rest;
}

/**
 * The state an edge viewer (openSocket) holds, from every snapshot and delta it received.
 * @param {{ frames: any[] }} viewer
 */
export const stateOf = (viewer) =>
  viewer.frames.filter((f) => f.type === 'snapshot' || f.type === 'delta').reduce((s, e) => applyEnvelope(s, e), null);

/**
 * Send a vote on an edge viewer's socket and wait for the shard's answer (docs/reference/audience-protocol.md#audience-voices).
 * @param {{ frames: any[], send: (frame: object) => void }} viewer
 * @param {string} key
 * @param {string} option
 * @param {string} device
 */
export async function edgeVote(viewer, key, option, device) {
  const before = viewer.frames.length;
  viewer.send({ type: 'vote', key, option, device });
  let answer;
  await waitFor(() => (answer = viewer.frames.slice(before).find((f) => f.type === 'voted' && f.key === key)), {
    timeoutMs: 10_000,
    what: `the edge's answer to ${device}`,
  });
  return answer;
}
