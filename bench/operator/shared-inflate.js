// `--apply shared` for compressed frames (envelope-cache.js shares the parse and the merge): phones
// of one process that receive the same compressed bytes share one inflation — only where the
// server negotiated `server_no_context_takeover`, as the venue's lean stream does (its frames are
// compressed once for every phone: local-server/src/hub/ws-frame.js): then the same bytes always
// inflate to the same text, exactly what each phone would compute. A server that keeps its
// compression context (the local edge: Miniflare's entry worker in front of it, docs/explanation/lean-stream.md#websocket-compression)
// sends bytes that only the phone's own inflater, fed with every earlier
// message, can read: those phones inflate on their own, as before. Without this, ws runs every
// phone's inflation through one queue per process (its zlib limiter), so a phone's small action frame waits behind the look-ahead frames of the
// phones that read before it — a queue no phone with its own CPU has, and the bench's two cores,
// not the server, would set the tail (docs/results.md#how-fast-how-small).

/** Inflations remembered (a few updates: phones of one process receive each within milliseconds). */
const KEEP = 16;

/** @type {Map<string, Promise<Buffer>>} compressed payload (latin1) → its inflation */
const recent = new Map();

/**
 * Make this phone's permessage-deflate share inflations with the others of the process (ws
 * internals: the extension object the receiver calls `decompress(data, fin, callback)` on). A
 * message in several fragments is inflated by the phone itself, as before.
 * @param {import('ws').WebSocket} ws an open client WebSocket
 */
export function shareInflations(ws) {
  const extension = /** @type {any} */ (ws)._extensions?.['permessage-deflate'];
  if (!extension || extension.params?.server_no_context_takeover !== true) return;
  const own = extension.decompress.bind(extension);
  extension.decompress = (/** @type {Buffer} */ data, /** @type {boolean} */ fin, /** @type {Function} */ callback) => {
    if (!fin) return own(data, fin, callback);
    const key = data.toString('latin1');
    let inflated = recent.get(key);
    if (!inflated) {
      inflated = new Promise((resolve, reject) => own(data, fin, (err, buf) => (err ? reject(err) : resolve(buf))));
      recent.set(key, inflated);
      if (recent.size > KEEP) recent.delete(/** @type {string} */ (recent.keys().next().value));
    }
    inflated.then(
      (buf) => callback(null, buf),
      (err) => callback(err),
    );
  };
}
