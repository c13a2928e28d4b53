// WebSocket transport: envelopes and pongs arrive as JSON text frames; pings and resync requests
// go up the same socket (docs/reference/audience-protocol.md#endpoints).

import { pageNow } from '../page-clock.js';

/**
 * @param {{ base: string, stream?: string, events: import('./events.js').TransportEvents }} options
 */
export function openWebSocket({ base, stream, events }) {
  const url = new URL('ws', base);
  if (stream && stream !== 'full') url.searchParams.set('stream', stream);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  let done = false;
  let ws;
  try {
    ws = new WebSocket(url);
  } catch (err) {
    queueMicrotask(() => events.onClose(`WebSocket refused: ${err.message}`));
    return { name: 'ws', canPing: false, send() {}, resync() {}, isOpen: () => false, close() {} };
  }

  ws.onopen = () => events.onOpen();
  ws.onmessage = (event) => {
    const r = pageNow(); // stamp first: parsing must not count as network delay
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch {
      return;
    }
    if (msg && msg.type === 'pong') events.onPong(msg, r);
    else if (msg && msg.type === 'voted') events.onVoted?.(msg);
    else events.onEnvelope(msg, r);
  };
  ws.onclose = (event) => {
    if (done) return;
    done = true;
    events.onClose(`WebSocket closed (${event.code}${event.reason ? `: ${event.reason}` : ''})`);
  };
  // An error is always followed by close; the reason is reported there.
  ws.onerror = () => {};

  const send = (obj) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj));
  };
  return {
    name: 'ws',
    canPing: true,
    send,
    resync: () => send({ type: 'resync' }),
    isOpen: () => ws.readyState === WebSocket.OPEN,
    close() {
      done = true;
      ws.close(1000);
    },
  };
}
