// Who is asking, as the internet sees it (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): Cloudflare puts the
// client's address in CF-Connecting-IP (a client cannot set it there; locally Miniflare sets it
// from the socket unless the request already has one, which is how the tests play many addresses).
// Loopback is exempt from every per-address limit, as on the venue server: it only exists under
// `npm run edge:dev`, where benchmarks load the edge from the machine itself.

/**
 * @param {Request} request
 * @returns {string} the client's address, '' when unknown
 */
export function clientAddress(request) {
  return (request.headers.get('cf-connecting-ip') ?? '').trim().slice(0, 64);
}

/**
 * @param {string} address
 * @returns {boolean} exactly 127.0.0.1 or ::1 (or unknown: no Cloudflare in front)
 */
export function isLoopback(address) {
  return address === '' || address === '127.0.0.1' || address === '::1';
}
