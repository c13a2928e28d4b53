// Viewers that behave as docs/reference/audience-protocol.md#endpoints asks of every client: reconnect after a
// drop and resync on a seq gap or a new epoch — over WebSocket, SSE and polling. Used by the fault
// tests.

import WebSocket from 'ws';
import { createTracker } from './clients.js';
import { createSseParser } from '#core/protocol/sse-parser.js';

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** JSON with object keys sorted, so two equal states give the same bytes. */
export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function base(kind) {
  const client = { kind, tracker: createTracker(), stopped: false, reconnects: 0, resyncs: 0 };
  client.reset = () => {
    const fresh = createTracker();
    fresh.envelopes = client.tracker.envelopes;
    client.tracker = fresh;
  };
  return client;
}

export function wsViewer(baseUrl) {
  const client = base('ws');
  const url = baseUrl.replace(/^http/, 'ws') + '/ws';
  (async () => {
    while (!client.stopped) {
      await new Promise((resolve) => {
        const ws = new WebSocket(url, { perMessageDeflate: false });
        client.ws = ws;
        ws.on('message', (data) => {
          const env = JSON.parse(data.toString());
          if (env.v !== 1) return;
          if (env.type === 'delta' && env.epoch !== client.tracker.epoch) {
            client.resyncs += 1;
            ws.send('{"type":"resync"}');
            return;
          }
          if (!client.tracker.accept(env)) {
            client.resyncs += 1;
            ws.send('{"type":"resync"}');
          }
        });
        ws.on('error', () => {});
        ws.on('close', resolve);
      });
      if (!client.stopped) {
        client.reconnects += 1;
        await pause(100 + Math.random() * 100);
      }
    }
  })();
  client.stop = () => {
    client.stopped = true;
    client.ws?.terminate();
  };
  return client;
}

export function sseViewer(baseUrl) {
  const client = base('sse');
  let controller;
  (async () => {
    while (!client.stopped) {
      controller = new AbortController();
      const headers = client.tracker.seq !== null ? { 'last-event-id': String(client.tracker.seq) } : {};
      const epoch = client.tracker.epoch ? `?epoch=${client.tracker.epoch}` : '';
      try {
        const res = await fetch(`${baseUrl}/sse${epoch}`, { headers, signal: controller.signal });
        const decoder = new TextDecoder();
        const parser = createSseParser((event) => {
          if (!client.tracker.accept(JSON.parse(event.data))) {
            // Gap or new epoch: reconnect without Last-Event-ID (docs/reference/audience-protocol.md#endpoints).
            client.resyncs += 1;
            client.reset();
            controller.abort();
          }
        });
        for await (const chunk of res.body) parser.push(decoder.decode(chunk, { stream: true }));
      } catch {
        // dropped or aborted: reconnect
      }
      if (!client.stopped) {
        client.reconnects += 1;
        await pause(100 + Math.random() * 100);
      }
    }
  })();
  client.stop = () => {
    client.stopped = true;
    controller?.abort();
  };
  return client;
}

export function pollViewer(baseUrl) {
  const client = base('poll');
  (async () => {
    while (!client.stopped) {
      const t = client.tracker;
      const query = t.seq === null ? '' : `?since=${t.seq}&epoch=${t.epoch}&wait=1000`;
      try {
        const res = await fetch(`${baseUrl}/poll${query}`);
        const list = await res.json();
        for (const env of list) {
          if (!client.tracker.accept(env)) {
            client.resyncs += 1;
            client.reset();
            break;
          }
        }
      } catch {
        client.reconnects += 1;
        await pause(100 + Math.random() * 100);
      }
    }
  })();
  client.stop = () => {
    client.stopped = true;
  };
  return client;
}
