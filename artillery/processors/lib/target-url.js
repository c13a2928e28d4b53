// Scenarios take one HTTP(S) base URL (`--target http://127.0.0.1:8080`, a deployed edge) for
// every transport; these turn it into the URL each transport needs.

/**
 * @param {string} target base URL, e.g. http://127.0.0.1:8080 or https://edge.example.com/show
 * @param {string} path e.g. "/ws"
 * @returns {string}
 */
export function httpUrl(target, path) {
  const base = new URL(String(target));
  base.pathname = `${base.pathname.replace(/\/+$/, '')}${path}`;
  base.search = '';
  base.hash = '';
  return base.href;
}

/**
 * @param {string} target
 * @param {string} path
 * @returns {string} the same URL with ws: / wss:
 */
export function wsUrl(target, path) {
  return httpUrl(target, path).replace(/^http(s?):/, 'ws$1:');
}
