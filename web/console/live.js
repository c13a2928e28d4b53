// The live feed: GET /api/events read as Server-Sent Events through fetch (EventSource cannot
// send the Authorization header). Reconnects with backoff; a silent stream (no event and no
// heartbeat for a while) counts as lost.

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
      await new Promise((r) => setTimeout(r, Math.min(5000, 250 * 2 ** Math.min(attempt, 5))));
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

/** Parse an SSE byte stream; `emit(event, data)` per event with JSON data. */
async function readEvents(body, onBytes, emit) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    onBytes();
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data += line.slice(5).trim();
      }
      if (data) emit(event, JSON.parse(data));
    }
  }
}
