// Calls to the control API with the bearer token. Every failure becomes an ApiError with the
// server's code and message (or a plain one when the server cannot be reached).

export class ApiError extends Error {
  /**
   * @param {number} status HTTP status (0 when the server did not answer)
   * @param {{ error?: string, message?: string, problems?: Array<{ path: string, message: string }> }} body
   */
  constructor(status, body) {
    super(body?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.error ?? 'ERROR';
    this.problems = body?.problems ?? [];
  }
}

/**
 * @param {string} token
 * @param {{ onUnauthorized?: () => void }} [hooks]
 */
export function createApi(token, hooks = {}) {
  async function call(method, path, body) {
    /** @type {RequestInit & { headers: Record<string, string> }} */
    // x-tutti-client: the server logs and records the console's actions as the console's.
    const init = { method, headers: { authorization: `Bearer ${token}`, 'x-tutti-client': 'console' }, cache: 'no-store' };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, init);
    } catch {
      throw new ApiError(0, { error: 'UNREACHABLE', message: 'The show server does not answer.' });
    }
    const text = await res.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = { error: 'BAD_RESPONSE', message: text.slice(0, 200) };
    }
    if (res.status === 401) hooks.onUnauthorized?.();
    if (!res.ok) throw new ApiError(res.status, data ?? {});
    return data;
  }
  return {
    token,
    get: (path) => call('GET', path),
    post: (path, body = {}) => call('POST', path, body),
    put: (path, body) => call('PUT', path, body),
    patch: (path, body) => call('PATCH', path, body),
    del: (path, body) => call('DELETE', path, body),
  };
}
