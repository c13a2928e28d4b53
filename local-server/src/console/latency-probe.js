// The console's latency probe: a viewer inside the server that measures what phones on a perfect
// network would see (encode, fan-out, socket write), for the console's live chart.

import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { backoffDelay } from '#core/util/backoff.js';

const MAX_SAMPLES = 20_000;

/** The request header carrying the probe's secret (local-server/src/guards/probe-key.js checks it). */
export const PROBE_HEADER = 'x-tutti-probe';

/** This process's clock in epoch ms, monotonic (immune to wall-clock steps). */
export const clock = () => performance.timeOrigin + performance.now();

/**
 * A viewer inside the server: a loopback WebSocket on the audience port that records
 * receive time − envelope `t` for every envelope (the "server-side push latency": encode,
 * fan-out and socket write, not the Wi-Fi). It syncs its clock with the server like a phone
 * does (ping/pong), so a wall-clock step on this machine cannot fake a latency.
 * The probe identifies itself with a per-server secret header, so the audience listener does
 * not count it as a viewer (a phone never takes its place under --max-clients).
 * @param {{ port: () => number, key: string }} options the audience listener's port (read at each connect), the probe's secret
 */
export function createLatencyProbe({ port, key }) {
  /** @type {Array<{ at: number, ms: number }>} */
  let samples = [];
  let ws = null;
  let state = 'idle';
  let error = null;
  let offset = null; // server clock − local clock, from the best (lowest round trip) pong
  let bestRtt = Infinity;
  let closed = false;
  let retry = null;
  let pinger = null;
  let failures = 0;
  let pingId = 0;

  function connect(hostIndex = 0) {
    if (closed) return;
    const host = ['127.0.0.1', '[::1]'][hostIndex];
    state = 'connecting';
    ws = new WebSocket(`ws://${host}:${port()}/ws`, { perMessageDeflate: false, handshakeTimeout: 5000, headers: { [PROBE_HEADER]: key } });
    ws.on('open', () => {
      state = 'open';
      error = null;
      failures = 0;
      ping();
      pinger = setInterval(ping, 5000);
      pinger.unref();
    });
    ws.on('message', (data) => {
      const received = clock();
      let msg;
      try {
        msg = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (msg.type === 'pong' && typeof msg.s === 'number' && typeof msg.c === 'number') {
        const rtt = received - msg.c;
        // Prefer the tightest round trip; let old estimates age out slowly.
        bestRtt = Math.min(bestRtt * 1.05, bestRtt + 1);
        if (rtt <= bestRtt) {
          bestRtt = rtt;
          offset = msg.s - (msg.c + received) / 2;
        }
        return;
      }
      if (msg.v !== 1 || typeof msg.t !== 'number' || offset === null) return;
      samples.push({ at: received, ms: Math.max(0, received + offset - msg.t) });
      if (samples.length > MAX_SAMPLES) samples = samples.slice(-MAX_SAMPLES / 2);
    });
    ws.on('unexpected-response', () => {
      error = 'the audience listener refused the probe (full?)';
    });
    ws.on('error', (err) => {
      error = err.message;
    });
    ws.on('close', (code, reason) => {
      clearInterval(pinger);
      ws = null;
      if (closed) return;
      state = 'closed';
      if (code === 1013) error = 'audience listener full (--max-clients): latency probe turned away';
      else if (!error && code !== 1000) error = `probe closed (${code}${reason.length ? ` ${reason}` : ''})`;
      failures += 1;
      const tryV6 = failures === 1 && hostIndex === 0 && code === 1006;
      retry = setTimeout(() => connect(tryV6 ? 1 : 0), backoffDelay(failures, { baseMs: 1000, capMs: 30_000, jitter: false }));
      retry.unref();
    });
  }

  function ping() {
    if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'ping', id: (pingId += 1), c: clock() }));
  }

  return {
    start() {
      if (state === 'idle') connect();
    },
    /** Samples received since `since` (local clock ms). */
    since(since) {
      const out = [];
      for (let i = samples.length - 1; i >= 0 && samples[i].at >= since; i -= 1) out.push(samples[i].ms);
      return out;
    },
    prune(before) {
      const keep = samples.findIndex((s) => s.at >= before);
      samples = keep === -1 ? [] : samples.slice(keep);
    },
    /** Server clock − this module's clock (0 until the first pong). */
    offset: () => offset ?? 0,
    state: () => ({ state, error }),
    close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(pinger);
      ws?.terminate();
    },
  };
}
