// Copies the current score's media (its `assets`: images, audio) to the edge worker, so remote
// viewers' `media/<src>` URLs work there too. It asks the edge what it already has
// (`GET /publish/media` → sha256 per path) and uploads only what is missing or changed
// (`PUT /publish/media/<src>`), a few files at a time. It runs beside the state uplink and
// never touches it: a slow or failing upload cannot delay or break the state stream. Transient
// failures (network, 5xx) are retried with backoff; refusals (too big, quota) are logged once.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { MEDIA_READ_FLAGS, resolveMediaFile } from '../media-file.js';
import { backoffDelay } from '#core/util/backoff.js';
import { edgeHttpBase } from './edge-url.js';

const RETRY_BASE_MS = 1000;
const RETRY_CAP_MS = 30_000;
const REQUEST_TIMEOUT_MS = 120_000;
const DEFAULT_CONCURRENCY = 3;

/**
 * @typedef {object} MediaSource what the show is playing now
 * @property {string} dir the score's folder; asset `src` paths are relative to it
 * @property {Array<{ src: string }>} assets the score's assets
 *
 * @typedef {object} MediaSyncStatus
 * @property {number} uploaded current assets the edge holds with the same bytes (sha256)
 * @property {number} total assets of the current score
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

/**
 * The error code of an edge answer: `{"error": CODE}` (README.md, "Errors"), or the nested
 * `{"error": {"code"}}` an edge deployed before that change still sends.
 * @param {any} body
 */
function errorCodeOf(body) {
  const error = body?.error;
  return typeof error === 'string' ? error : (error?.code ?? '');
}

/** @param {string} src */
const encodeSrc = (src) => src.split('/').map(encodeURIComponent).join('/');

/** @param {number} n */
const kb = (n) => (n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

/** @param {unknown} err */
const messageOf = (err) => (err instanceof Error ? err.message : String(err));

class HttpError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   */
  constructor(status, message) {
    super(message);
    this.status = status;
  }

  /** A refusal that the same request would get again (not a network hiccup or a busy edge). */
  get permanent() {
    return this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429;
  }
}

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
  const auth = { authorization: `Bearer ${token}` };

  /** @type {MediaSyncStatus} */
  const current = { uploaded: 0, total: 0, bytes: 0, checked: false, state: base ? 'idle' : 'off', lastError: base ? null : `BAD_URL: ${url}` };
  let running = false;
  let again = false;
  let attempt = 0;
  /** @type {NodeJS.Timeout | null} */
  let retryTimer = null;
  /** @type {Set<() => void>} */
  const idleWaiters = new Set();
  /** @type {Map<string, string>} `${file}:${size}:${mtime}` → sha256, so unchanged files are hashed once */
  const hashes = new Map();
  /** @type {Set<string>} `${src}:${sha256}` refusals already logged */
  const refused = new Set();

  /**
   * @param {string} pathname
   * @param {RequestInit} [init]
   */
  async function request(pathname, init = {}) {
    const signal = AbortSignal.any([closer.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]);
    const res = await fetchImpl(`${base}${pathname}`, { ...init, headers: { ...auth, ...init.headers }, signal });
    const text = await res.text();
    let body = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the status
    }
    if (!res.ok) throw new HttpError(res.status, `${res.status} ${errorCodeOf(body)} ${body?.message ?? body?.error?.message ?? text.slice(0, 200)}`.trim());
    return body;
  }

  /**
   * The current score's files with their size and sha256.
   * @param {MediaSource} media
   */
  async function describeLocal(media) {
    const files = [];
    const seen = new Set();
    for (const asset of media.assets ?? []) {
      if (typeof asset?.src !== 'string' || seen.has(asset.src)) continue;
      seen.add(asset.src);
      try {
        // The same check as the venue's /media route: a link leaving the score's folder is not uploaded.
        const resolved = await resolveMediaFile(media.dir, asset.src);
        if (!resolved.ok) throw new Error(resolved.message);
        const { file, size, mtimeMs } = resolved;
        const key = `${file}:${size}:${mtimeMs}`;
        let sha256 = hashes.get(key);
        if (!sha256) {
          sha256 = createHash('sha256').update(await readFile(file, { flag: MEDIA_READ_FLAGS })).digest('hex');
          hashes.set(key, sha256);
        }
        files.push({ src: asset.src, file, size, sha256 });
      } catch (err) {
        warn(`cannot read ${asset.src} (${messageOf(err)}); the edge will not have it`);
      }
    }
    return files;
  }

  /**
   * One comparison + upload pass.
   * @returns {Promise<boolean>} true when everything that can be uploaded is on the edge
   */
  async function pass() {
    const media = source();
    const local = media ? await describeLocal(media) : [];
    current.total = media ? new Set((media.assets ?? []).map((a) => a.src)).size : 0;
    current.checked = true;
    if (!local.length) {
      Object.assign(current, { uploaded: 0, bytes: 0 });
      return true;
    }
    let remote = await request('/publish/media');
    /** @type {Map<string, { size: number, sha256: string }>} */
    let have = new Map((remote.files ?? []).map((f) => [f.src, f]));
    const matches = (f) => have.get(f.src)?.sha256 === f.sha256;
    const count = () => {
      const on = local.filter(matches);
      Object.assign(current, { uploaded: on.length, bytes: on.reduce((sum, f) => sum + f.size, 0) });
    };
    count();
    const limits = remote.limits ?? {};
    const need = local.filter((f) => {
      if (matches(f)) return false;
      if (Number.isFinite(limits.fileBytes) && f.size > limits.fileBytes) {
        if (!refused.has(`${f.src}:${f.sha256}`)) warn(`${f.src} is ${kb(f.size)}, over the edge's ${kb(limits.fileBytes)} per file: remote viewers will not get it`);
        refused.add(`${f.src}:${f.sha256}`);
        return false;
      }
      return true;
    });
    if (!need.length) return true;

    // Over the show's quota once uploaded? Remove what the current score no longer uses first.
    const wanted = new Set(local.map((f) => f.src));
    const projected = (remote.bytes ?? 0) + need.reduce((sum, f) => sum + f.size - (have.get(f.src)?.size ?? 0), 0);
    if (Number.isFinite(limits.totalBytes) && projected > limits.totalBytes) {
      const stale = [...have.keys()].filter((src) => !wanted.has(src));
      for (const src of stale) await request(`/publish/media/${encodeSrc(src)}`, { method: 'DELETE' });
      if (stale.length) info(`removed ${stale.length} file(s) of earlier scores from the edge to make room`);
      remote = await request('/publish/media');
      have = new Map((remote.files ?? []).map((f) => [f.src, f]));
    }

    const total = need.reduce((sum, f) => sum + f.size, 0);
    info(`uploading ${need.length} file(s), ${kb(total)} (${current.uploaded}/${current.total} already there)`);
    let transient = false;
    const queue = need.slice();
    const worker = async () => {
      for (let f = queue.shift(); f; f = queue.shift()) {
        try {
          const bytes = await readFile(f.file, { flag: MEDIA_READ_FLAGS });
          const sha256 = createHash('sha256').update(bytes).digest('hex');
          await request(`/publish/media/${encodeSrc(f.src)}`, {
            method: 'PUT',
            body: bytes,
            headers: { 'content-type': 'application/octet-stream', 'x-content-sha256': sha256 },
          });
          have.set(f.src, { size: bytes.length, sha256 });
          if (sha256 !== f.sha256) transient = true; // changed on disk meanwhile: compare again
          count();
          info(`${current.uploaded}/${current.total} on the edge (${f.src}, ${kb(bytes.length)})`);
        } catch (err) {
          if (closer.signal.aborted) return;
          current.lastError = `UPLOAD ${f.src}: ${messageOf(err)}`;
          if (err instanceof HttpError && err.permanent) {
            if (!refused.has(`${f.src}:${f.sha256}`)) warn(`the edge refused ${f.src}: ${messageOf(err)}`);
            refused.add(`${f.src}:${f.sha256}`);
          } else {
            transient = true;
            warn(`upload of ${f.src} failed (${messageOf(err)}); will retry`);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, need.length)) }, worker));
    return !transient;
  }

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
