// Server-Sent Events framing (docs/reference/audience-protocol.md#endpoints): every event carries `id: <seq>` so
// a reconnecting EventSource resumes with Last-Event-ID.

/**
 * One SSE event for an envelope already serialized to JSON (JSON has no raw newlines).
 * @param {number} seq
 * @param {string} json
 * @returns {string}
 */
export function formatSseEvent(seq, json) {
  return `id: ${seq}\ndata: ${json}\n\n`;
}

/** A comment line: keeps proxies from closing an idle stream. */
export const SSE_HEARTBEAT = ':\n\n';

/**
 * Parse a resume point from a Last-Event-ID header or `since` query value.
 * @param {unknown} raw
 * @returns {number | null} a non-negative integer or null when absent/invalid
 */
export function parseSeq(raw) {
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw)) return null;
  return Number(raw);
}
