// An upload's body as the media store keeps it (media.js): cut into chunk rows of
// MEDIA_CHUNK_BYTES and hashed on the way, given up as soon as it passes the file cap so a large
// body is never held whole.

/** Bytes per stored chunk row (a stored value must stay under 2 MB). */
export const MEDIA_CHUNK_BYTES = 1024 * 1024;

/** @param {ArrayBuffer} buffer */
const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * @param {ReadableStream<Uint8Array> | null} body
 * @param {number} maxBytes the file cap
 * @returns {Promise<{ chunks: Uint8Array[], size: number, sha256: string } | null>} null: over the cap
 */
export async function readMediaBody(body, maxBytes) {
  /** @type {Uint8Array[]} */
  const chunks = [];
  let current = new Uint8Array(MEDIA_CHUNK_BYTES);
  let filled = 0;
  let size = 0;
  const digest = new crypto.DigestStream('SHA-256');
  const hasher = digest.getWriter();
  const reader = body?.getReader();
  for (;;) {
    const { done, value } = reader ? await reader.read() : { done: true, value: undefined };
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader?.cancel().catch(() => {});
      await hasher.abort().catch(() => {});
      return null;
    }
    await hasher.write(value);
    for (let offset = 0; offset < value.byteLength;) {
      const take = Math.min(MEDIA_CHUNK_BYTES - filled, value.byteLength - offset);
      current.set(value.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === MEDIA_CHUNK_BYTES) {
        chunks.push(current);
        current = new Uint8Array(MEDIA_CHUNK_BYTES);
        filled = 0;
      }
    }
  }
  if (filled > 0) chunks.push(current.subarray(0, filled));
  await hasher.close();
  return { chunks, size, sha256: hex(await digest.digest) };
}
