// The edge's media endpoints as the venue calls them (docs/reference/publisher-protocol.md#score-media):
// `GET /publish/media` (what it holds: sha256 and size per path, and its limits),
// `PUT /publish/media/<src>` and `DELETE /publish/media/<src>`, with the publish token, a
// per-request timeout, and refusals as HttpError (so a caller can tell "again later" from "never").

const REQUEST_TIMEOUT_MS = 120_000;

/**
 * The error code of an edge answer: `{"error": CODE}` (docs/reference/errors.md#audience-errors), or the nested
 * `{"error": {"code"}}` an edge deployed before that change still sends.
 * @param {any} body
 */
function errorCodeOf(body) {
  const error = body?.error;
  return typeof error === 'string' ? error : (error?.code ?? '');
}

/** @param {string} src */
const encodeSrc = (src) => src.split('/').map(encodeURIComponent).join('/');

/** An edge answer that was not 2xx. */
export class HttpError extends Error {
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
 * @typedef {object} EdgeMediaList what the edge holds for the show
 * @property {Array<{ src: string, size: number, sha256: string }>} [files]
 * @property {number} [bytes] their total size
 * @property {{ fileBytes?: number, totalBytes?: number }} [limits]
 */

/**
 * @param {object} options
 * @param {string} options.base the edge's HTTP base URL (edge-url.js)
 * @param {string} options.token the edge's PUBLISH_TOKEN
 * @param {AbortSignal} options.signal aborts every request (the sync is closing)
 * @param {typeof fetch} options.fetch
 */
export function createEdgeMediaClient({ base, token, signal: closing, fetch: fetchImpl }) {
  const auth = { authorization: `Bearer ${token}` };

  /**
   * @param {string} pathname
   * @param {RequestInit} [init]
   */
  async function request(pathname, init = {}) {
    const signal = AbortSignal.any([closing, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]);
    const res = await fetchImpl(`${base}${pathname}`, { ...init, headers: { ...auth, ...init.headers }, signal });
    const text = await res.text();
    let body = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the status
    }
    if (!res.ok)
      throw new HttpError(
        res.status,
        `${res.status} ${errorCodeOf(body)} ${body?.message ?? body?.error?.message ?? text.slice(0, 200)}`.trim(),
      );
    return body;
  }

  return {
    /** @returns {Promise<EdgeMediaList>} */
    list: () => request('/publish/media'),
    /**
     * @param {string} src
     * @param {Uint8Array} bytes
     * @param {string} sha256 the edge checks the bytes against it
     */
    put: (src, bytes, sha256) =>
      request(`/publish/media/${encodeSrc(src)}`, {
        method: 'PUT',
        body: /** @type {any} */ (bytes),
        headers: { 'content-type': 'application/octet-stream', 'x-content-sha256': sha256 },
      }),
    /** @param {string} src */
    remove: (src) => request(`/publish/media/${encodeSrc(src)}`, { method: 'DELETE' }),
  };
}

/** @typedef {ReturnType<typeof createEdgeMediaClient>} EdgeMediaClient */
