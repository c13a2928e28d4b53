// Reads seq, t and type from the start of a serialized envelope without parsing the whole
// JSON: envelopes are written in the order v, type, epoch, seq, t, data (createEnvelope), so
// the fields a load client needs sit in the first ~100 bytes while `data` may be 18 KB.
// Keeping the load clients cheap leaves the shared CPU to the server under test.

/**
 * @param {string} head at least the first 200 characters of the envelope
 * @returns {{ seq: number, t: number, snapshot: boolean } | null} null when it does not look like an envelope
 */
export function parseEnvelopeHead(head) {
  const i = head.indexOf('"seq":');
  if (i < 0) return null;
  const j = head.indexOf('"t":', i);
  if (j < 0) return null;
  const seq = Number.parseInt(head.slice(i + 6, i + 24), 10);
  const t = Number.parseFloat(head.slice(j + 4, j + 32));
  if (!Number.isFinite(seq) || !Number.isFinite(t)) return null;
  return { seq, t, snapshot: head.lastIndexOf('"type":"snapshot"', i) >= 0 };
}

/** How many leading characters parseEnvelopeHead needs (epoch ids are at most 64 characters). */
export const HEAD_CHARS = 200;
