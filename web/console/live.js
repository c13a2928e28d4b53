// The live feed: GET /api/events read as Server-Sent Events through fetch (EventSource cannot
// send the Authorization header). Reconnects with backoff; a silent stream (no event and no
// heartbeat for a while) counts as lost. The SSE parser and the backoff rule are core's, served
// to this page as they are (local-server/src/console/console-ui.js, CONSOLE_CORE_FILES).

import { createSseParser } from '../../core/protocol/sse-parser.js';
import { backoffDelay } from '../../core/util/backoff.js';

const SILENCE_MS = 20_000;

/**
 * @param {string} token
 * @param {Record<string, (data: any) => void>} handlers by event name (hello, beat, transport, stats, …)
 * @param {(state: 'connecting' | 'open' | 'lost' | 'unauthorized', detail?: string) => void} onState
 * @returns {{ stop: () => void }}
 */
export function connectLive(token, handlers, onState) {
  let stopped = false;
  let controller = null;
  let attempt = 0;

  async function run() {
    while (!stopped) {
      controller = new AbortController();
      let watchdog = null;
      const pet = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => controller.abort(), SILENCE_MS);
      };
      try {
        onState('connecting');
        pet();
        const res = await fetch('/api/events', {
          headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
          cache: 'no-store',
          signal: controller.signal,
        });
        if (res.status === 401) {
          clearTimeout(watchdog);
          onState('unauthorized');
          return;
        }
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        attempt = 0;
        onState('open');
        await readEvents(res.body, pet, (event, data) => {
          try {
            handlers[event]?.(data);
          } catch (err) {
            console.error(`console: handling "${event}" failed`, err);
          }
        });
      } catch {
        // fall through to reconnect
      } finally {
        clearTimeout(watchdog);
      }
      if (stopped) return;
      attempt += 1;
      onState('lost', attempt > 1 ? `retrying (attempt ${attempt})` : 'retrying');
      await new Promise((r) => setTimeout(r, backoffDelay(attempt, { baseMs: 250, capMs: 5000, jitter: false })));
    }
  }

  run();
  return {
    stop() {
      stopped = true;
      controller?.abort();
    },
  };
}

/** Read an SSE byte stream; `emit(event, data)` per event with JSON data; `onBytes` on every chunk (heartbeats too). */
async function readEvents(body, onBytes, emit) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = createSseParser(({ event, data }) => emit(event, JSON.parse(data)));
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    onBytes();
    parser.push(value);
  }
}
