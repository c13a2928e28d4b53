// Read just what a load client needs from an envelope (type, epoch, seq, t) without parsing the
// whole thing: a snapshot is ~18 KB and thousands of virtual viewers share one or two cores, so
// JSON.parse on every frame would make the load generator, not the server, the bottleneck. Used
// by the Artillery processors and the benches alike. Servers
// write the envelope keys in the documented order (docs/reference/audience-protocol.md#endpoints: v, type, epoch,
// seq, t, data); anything else falls back to a full parse, so a reordered envelope is still read
// correctly, only slower.

const HEAD = /^\{"v":1,"type":"(snapshot|delta)","epoch":"([^"\\]{1,64})","seq":(\d{1,15}),"t":(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)[,}]/;

/**
 * @typedef {{ type: 'snapshot' | 'delta', epoch: string, seq: number, t: number }} EnvelopeHead
 */

/**
 * The head of one envelope given as JSON text, or null when the text is not an envelope
 * (a pong, a heartbeat, garbage).
 * @param {string} text
 * @returns {EnvelopeHead | null}
 */
export function readEnvelopeHead(text) {
  const m = HEAD.exec(text);
  if (m) return { type: /** @type {'snapshot' | 'delta'} */ (m[1]), epoch: m[2], seq: Number(m[3]), t: Number(m[4]) };
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return headOf(value);
}

/**
 * The head of an already parsed envelope (poll responses are parsed anyway), or null.
 * @param {unknown} value
 * @returns {EnvelopeHead | null}
 */
export function headOf(value) {
  if (typeof value !== 'object' || value === null) return null;
  const e = /** @type {Record<string, unknown>} */ (value);
  if (e.v !== 1 || (e.type !== 'snapshot' && e.type !== 'delta')) return null;
  if (typeof e.epoch !== 'string' || !Number.isSafeInteger(e.seq) || typeof e.t !== 'number' || !Number.isFinite(e.t)) return null;
  return { type: e.type, epoch: e.epoch, seq: /** @type {number} */ (e.seq), t: e.t };
}

/** How many leading characters readEnvelopeHead needs to find the head (epoch ids are at most 64 characters). */
export const HEAD_CHARS = 200;
