// `?stream=` on /ws, /sse and /poll (README.md): which state stream a viewer reads. `full` (the
// default) carries every beat; `lean` leaves out what the viewer computes itself.

/**
 * @param {Record<string, string | undefined>} query
 * @returns {'full' | 'lean' | null} null when the value is not one of the two
 */
export function streamFromQuery(query) {
  const value = query.stream;
  if (value === undefined || value === 'full') return 'full';
  if (value === 'lean') return 'lean';
  return null;
}

export const BAD_STREAM = { error: 'BAD_STREAM', message: 'stream must be "full" or "lean"' };
