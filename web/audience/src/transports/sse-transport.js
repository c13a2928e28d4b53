// Server-Sent Events transport. EventSource would reconnect on its own; we close it on the first
// error instead and let the transport policy decide (back off, or give up on SSE), resuming with
// ?since=&epoch= from what the stream tracker holds.

import { pageNow } from '../page-clock.js';

/**
 * @param {{ base: string, stream?: string, cursor: () => { since: number, epoch: string } | null, events: import('./events.js').TransportEvents }} options
 */
export function openEventSource({ base, stream, cursor, events }) {
  let done = false;
  /** @type {EventSource} */
  let es;

  function open() {
    const url = new URL('sse', base);
    if (stream && stream !== 'full') url.searchParams.set('stream', stream);
    const at = cursor();
    if (at) {
      url.searchParams.set('since', String(at.since));
      url.searchParams.set('epoch', at.epoch);
    }
    es = new EventSource(url);
    es.onopen = () => events.onOpen();
    es.onmessage = (event) => {
      const r = pageNow();
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      events.onEnvelope(msg, r);
    };
    es.onerror = () => {
      es.close();
      if (done) return;
      done = true;
      events.onClose('event stream failed');
    };
  }
  open();

  return {
    name: 'sse',
    canPing: false,
    send() {},
    // A fresh stream without a resume point starts with a snapshot.
    resync() {
      if (done) return;
      es.onerror = null;
      es.close();
      open();
    },
    isOpen: () => es.readyState === EventSource.OPEN,
    close() {
      done = true;
      es.close();
    },
  };
}
