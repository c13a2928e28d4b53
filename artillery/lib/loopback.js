// Whether a load-test target is this machine: the report calls such a run "loopback, load
// generator on the same machine", and run.js may use the local edge's dev token for it.

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * @param {string | null | undefined} url a target as given to Artillery (http, https, ws or wss)
 * @returns {boolean} true for 127.0.0.1, ::1 and localhost, with or without a port or path
 */
export function isLoopbackUrl(url) {
  if (!url) return false;
  try {
    return LOOPBACK_HOSTS.has(new URL(url).hostname.toLowerCase());
  } catch {
    return false;
  }
}
