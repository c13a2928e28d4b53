// Long-polling transport: GET poll?since=SEQ&epoch=E&wait=MS in a loop. The last resort, for
// networks that break both WebSockets and streaming responses.

import { pageNow } from '../page-clock.js';

const WAIT_MS = 25_000;
const SLACK_MS = 10_000;

/**
 * @param {{ base: string, stream?: string, cursor: () => { since: number, epoch: string } | null, events: import('./events.js').TransportEvents }} options
 */
export function openPolling({ base, stream, cursor, events }) {
  let done = false;
  let opened = false;
  /** @type {AbortController | null} */
  let inflight = null;

  async function loop() {
    // Bounded by `done`: every iteration awaits the network, and any failure ends the loop.
    while (!done) {
      const url = new URL('poll', base);
      if (stream && stream !== 'full') url.searchParams.set('stream', stream);
      const at = cursor();
      if (at) {
        url.searchParams.set('since', String(at.since));
        url.searchParams.set('epoch', at.epoch);
        url.searchParams.set('wait', String(WAIT_MS));
      }
      const controller = new AbortController();
      inflight = controller;
      const started = pageNow();
      const timer = setTimeout(() => controller.abort(), WAIT_MS + SLACK_MS);
      let list;
      let r;
      try {
        const res = await fetch(url, { cache: 'no-store', signal: controller.signal });
        r = pageNow();
        if (!res.ok) throw new Error(`poll answered ${res.status}`);
        list = await res.json();
        if (!Array.isArray(list)) throw new Error('poll answer is not a list');
      } catch (err) {
        clearTimeout(timer);
        if (done) return;
        // Our own abort (resync) just starts the next request.
        if (controller.signal.aborted && inflight !== controller) continue;
        done = true;
        events.onClose(`polling failed: ${err.message}`);
        return;
      }
      clearTimeout(timer);
      if (done) return;
      if (!opened) {
        opened = true;
        events.onOpen();
      }
      for (const envelope of list) events.onEnvelope(envelope, r);
      // A server that answers "nothing new" at once (no long-poll support) must not be hammered.
      if (list.length === 0 && r - started < 100) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  queueMicrotask(loop);

  return {
    name: 'poll',
    canPing: false,
    send() {},
    // The cursor says "no resume point" while a resync is needed: abort the wait and ask again.
    resync() {
      const c = inflight;
      inflight = null;
      c?.abort();
    },
    isOpen: () => opened && !done,
    close() {
      done = true;
      inflight?.abort();
    },
  };
}
