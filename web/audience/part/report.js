// The part page tells the venue server it is there (docs/how-to/part-pages.md#part-pages): every few seconds a
// small POST to report under its keyed URL (not a message on the stream's socket, so it works the
// same on every transport: WebSocket, SSE or polling), with the part picked and the clock-sync
// quality the console shows next to it. The server checks it as hostile input (part-pages.js)
// and the audience listener's per-address request limit applies.

const EVERY_MS = 5000;
const round1 = (x) => (typeof x === 'number' && Number.isFinite(x) ? Math.round(x * 10) / 10 : null);

/**
 * @param {object} options
 * @param {string} options.base the part page's URL (…/part/<key>/)
 * @param {() => ({ part: string, rtt: number | null, bound: number | null, transport: string | null, click: boolean } | null)} options.read null: nothing to report yet (no part picked)
 * @param {(status: number) => void} options.onRefused the server answered 403 (the key is no longer valid)
 */
export function startReports({ base, read, onRefused }) {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  const id = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
  const url = new URL('report', base);
  let timer = null;

  async function send() {
    const r = read();
    if (r) {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id, part: r.part, rtt: round1(r.rtt), bound: round1(r.bound), transport: r.transport, click: r.click }),
          cache: 'no-store',
        });
        if (res.status === 403) onRefused(res.status);
      } catch {
        // offline for a moment: the next report says it again
      }
    }
    timer = setTimeout(send, EVERY_MS);
  }

  return {
    id,
    /** Report now (a part was just picked), then every few seconds. */
    now() {
      clearTimeout(timer);
      send();
    },
  };
}
