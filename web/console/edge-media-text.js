// The edge panel's Media row in words. Remote viewers see images and hear audio cues only once
// the score's files are on the edge, so the row must say why they are not: "no media files"
// only when the score really has none, never when the edge is unreachable or refuses the token.

/**
 * @param {{ connected?: boolean, lastError?: string | null, media?: { uploaded: number, total: number, bytes: number, state: string, lastError: string | null, checked?: boolean } | null }} edge the edge status (/api/console)
 * @returns {string}
 */
export function edgeMediaText(edge) {
  const media = edge.media;
  if (!media) return '—';
  const { uploaded, total, bytes, state, lastError, checked } = media;
  if (!checked) {
    // No pass has run: the uplink never came up (down, wrong URL, token refused).
    const why = lastError ?? edge.lastError;
    return why ? `not uploaded: ${why}` : edge.connected ? 'checking the edge…' : 'not uploaded yet: waiting for the edge link';
  }
  if (total === 0) return 'this score has no media files';
  const size = bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
  const held = `${uploaded} of ${total} file${total === 1 ? '' : 's'} on the edge (${size})`;
  if (state === 'syncing') return `${held}, uploading…`;
  if (state === 'retrying') return `${held}, retrying${lastError ? `: ${lastError}` : ''}`;
  return uploaded < total && lastError ? `${held}; ${lastError}` : held;
}
