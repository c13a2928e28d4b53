// Real audience clients for tests: WebSocket, SSE (over fetch) and polling, each keeping the
// envelopes it received and the state they add up to.

import WebSocket from 'ws';
import { applyEnvelope } from '#core/stream/state-stream.js';
import { createSseParser } from '#core/protocol/sse-parser.js';

/** Wait until `check()` returns truthy (polling every 10 ms), or fail after `ms`. */
export async function waitFor(check, ms = 5000, what = 'condition') {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Track envelopes like a viewer: state, last seq, gaps. */
export function createTracker() {
  const tracker = {
    envelopes: [],
    state: null,
    epoch: null,
    seq: null,
    gaps: 0,
    accept(envelope) {
      tracker.envelopes.push(envelope);
      if (envelope.type === 'delta' && (envelope.epoch !== tracker.epoch || envelope.seq !== tracker.seq + 1)) {
        tracker.gaps += 1;
        return false;
      }
      tracker.state = applyEnvelope(tracker.state, envelope);
      tracker.epoch = envelope.epoch;
      tracker.seq = envelope.seq;
      return true;
    },
  };
  return tracker;
}

export function wsUrl(httpUrl, path = '/ws') {
  return httpUrl.replace(/^http/, 'ws') + path;
}

/** Open a viewer WebSocket; resolves once open. Non-envelope frames (pong) go to `others`. `query`: e.g. `?stream=lean`. */
export async function openWs(baseUrl, { query = '', ...options } = {}) {
  const ws = new WebSocket(`${wsUrl(baseUrl)}${query}`, { perMessageDeflate: false, ...options });
  const tracker = createTracker();
  const others = [];
  const closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.v === 1) tracker.accept(msg);
    else others.push(msg);
  });
  ws.on('error', () => {});
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('unexpected-response', (req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
  return { ws, tracker, others, closed };
}

/** Open an SSE stream with fetch; parses events as they arrive. */
export async function openSse(baseUrl, { headers = {}, query = '' } = {}) {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/sse${query}`, { headers, signal: controller.signal });
  const tracker = createTracker();
  const ids = [];
  const done = (async () => {
    if (!res.ok) return;
    const decoder = new TextDecoder();
    const parser = createSseParser((event) => {
      ids.push(event.id === null ? null : Number(event.id));
      tracker.accept(JSON.parse(event.data));
    });
    try {
      for await (const chunk of res.body) parser.push(decoder.decode(chunk, { stream: true }));
    } catch {
      // aborted
    }
  })();
  return { res, tracker, ids, close: () => controller.abort(), done };
}

export async function getJson(url, init) {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, body: await res.json().catch(() => null) };
}

/**
 * POST a control API request (`{ path, body }`, as bench/operator/actions.js lists them) with the
 * bearer token; resolves to the response.
 */
export function postControl(controlUrl, token, { path, body }) {
  return fetch(`${controlUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
