// Bodies refused before they are read (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): a declared
// Content-Length over the limit is refused at once, and a body without one (chunked) is read only
// up to the limit, then dropped; nothing ever holds more than `max` bytes of it.

/**
 * @param {Request} request
 * @param {number} max bytes
 * @returns {Promise<{ ok: true, text: string } | { ok: false }>}
 */
export async function readBodyLimited(request, max) {
  const declared = request.headers.get('content-length');
  if (declared !== null && !(Number(declared) <= max)) return { ok: false };
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return { ok: false };
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, text: new TextDecoder().decode(all) };
}
