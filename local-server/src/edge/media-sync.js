// Copies the current score's media (its `assets`: images, audio) to the edge worker, so remote
// viewers' `media/<src>` URLs work there too. It asks the edge what it already has
// (`GET /publish/media` → sha256 per path) and uploads only what is missing or changed
// (`PUT /publish/media/<src>`), a few files at a time. It runs beside the state uplink and
// never touches it: a slow or failing upload cannot delay or break the state stream. Transient
// failures (network, 5xx) are retried with backoff; refusals (too big, quota) are logged once.
// Parts: media-pass.js (one comparison + upload pass), local-media.js (the score's files and
// their sha256), edge-media-client.js (the edge's /publish/media endpoints); this file runs
// passes one at a time, retries and reports.

import { backoffDelay } from '#core/util/backoff.js';
import { createEdgeMediaClient, HttpError } from './edge-media-client.js';
import { edgeHttpBase } from './edge-url.js';
import { createMediaPass } from './media-pass.js';

const RETRY_BASE_MS = 1000;
const RETRY_CAP_MS = 30_000;
const DEFAULT_CONCURRENCY = 3;

/**
 * @typedef {object} MediaSource what the show is playing now
 * @property {string} dir the score's folder; asset `src` paths are relative to it
 * @property {Array<{ src: string }>} assets the score's assets
 * @property {() => Promise<Array<{ src: string, bytes: Uint8Array }>>} [generated] files the venue makes
 *   rather than reads from the score's folder (the engraved pages a view shows the audience,
 *   docs/reference/notation.md#the-score-on-the-audiences-phones), uploaded the same way
 *
 * @typedef {object} MediaSyncStatus
 * @property {number} uploaded current assets the edge holds with the same bytes (sha256)
 * @property {number} total assets of the current score (and the files the venue makes for it)
 * @property {boolean} checked whether a pass has looked at the score's files yet (until then total is unknown, not 0)
 * @property {number} bytes size of the assets the edge holds
 * @property {'idle' | 'syncing' | 'retrying' | 'off'} state
 * @property {string | null} lastError
 *
 * @typedef {object} MediaSync
 * @property {() => void} trigger compare with the edge again soon (connected, new score); never throws
 * @property {() => MediaSyncStatus} status
 * @property {() => Promise<void>} whenIdle resolves once no pass is running or queued (tests, shutdown)
 * @property {() => void} close stop: abort requests, cancel retries
 */

/** @param {unknown} err */
const messageOf = (err) => (err instanceof Error ? err.message : String(err));

/**
 * @param {object} options
 * @param {string} options.url the edge's URL as given to --edge
 * @param {string} options.token the edge's PUBLISH_TOKEN
 * @param {() => MediaSource | null} options.source the current score's media (null: none)
 * @param {{ info?: (msg: string) => void, warn?: (msg: string) => void }} [options.log]
 * @param {number} [options.concurrency] uploads in flight at once
 * @param {typeof fetch} [options.fetch]
 * @returns {MediaSync}
 */
export function createMediaSync({ url, token, source, log = {}, concurrency = DEFAULT_CONCURRENCY, fetch: fetchImpl = globalThis.fetch }) {
  const info = (/** @type {string} */ message) => log.info?.(`edge media: ${message}`);
  const warn = (/** @type {string} */ message) => log.warn?.(`edge media: ${message}`);
  const base = edgeHttpBase(url);
  const closer = new AbortController();
  const client = createEdgeMediaClient({ base: base ?? '', token, signal: closer.signal, fetch: fetchImpl });

  /** @type {MediaSyncStatus} */
  const current = {
    uploaded: 0,
    total: 0,
    bytes: 0,
    checked: false,
    state: base ? 'idle' : 'off',
    lastError: base ? null : `BAD_URL: ${url}`,
  };
  const pass = createMediaPass({ source, client, current, concurrency, signal: closer.signal, info, warn });
  let running = false;
  let again = false;
  let attempt = 0;
  /** @type {NodeJS.Timeout | null} */
  let retryTimer = null;
  /** @type {Set<() => void>} */
  const idleWaiters = new Set();

  function scheduleRetry() {
    if (retryTimer || closer.signal.aborted) return;
    const delay = backoffDelay(attempt, { baseMs: RETRY_BASE_MS, capMs: RETRY_CAP_MS, jitter: false });
    attempt = Math.min(attempt + 1, 16);
    current.state = 'retrying';
    retryTimer = setTimeout(() => {
      retryTimer = null;
      run();
    }, delay);
    retryTimer.unref?.();
  }

  async function run() {
    if (!base || closer.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    current.state = 'syncing';
    let done = false;
    try {
      done = await pass();
      if (done) current.lastError = null;
    } catch (err) {
      if (!closer.signal.aborted) {
        current.lastError = `SYNC: ${messageOf(err)}`;
        if (err instanceof HttpError && err.status === 401) warn('the edge refused the token; media not uploaded');
        else warn(`cannot compare media with the edge (${messageOf(err)}); will retry`);
      }
    } finally {
      running = false;
    }
    if (closer.signal.aborted) current.state = 'off';
    else if (again) {
      again = false;
      void run();
      return;
    } else if (done) {
      attempt = 0;
      current.state = 'idle';
    } else scheduleRetry();
    for (const resolve of idleWaiters) resolve();
    idleWaiters.clear();
  }

  return {
    trigger() {
      if (retryTimer) {
        clearTimeout(retryTimer);
        retryTimer = null;
      }
      attempt = 0;
      run().catch((err) => warn(`unexpected: ${messageOf(err)}`));
    },
    status: () => ({ ...current }),
    whenIdle() {
      if (!running && !again) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.add(resolve));
    },
    close() {
      closer.abort();
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      current.state = 'off';
      for (const resolve of idleWaiters) resolve();
      idleWaiters.clear();
    },
  };
}
