// A playing show's state as the venue publishes it (docs/README.md, the state and its flywheel), for
// the edge's lean-stream suites: the per-beat `position`, the per-cue `view`, and `segment` and
// `ahead` chunks of WINDOW_BEATS beats, so the lean stream moves once per chunk.

export const BEAT_MS = 500;
/** 15 s at 120 bpm, as the venue's ahead chunks. */
export const WINDOW_BEATS = 30;
const loadedAt = Date.now();

/**
 * The state at beat `index`.
 * @param {number} index
 * @param {{ bpm?: number, t0?: number }} [options] t0: when beat 0 sounds (server clock)
 */
export function playingAt(index, { bpm = 120, t0 = loadedAt } = {}) {
  const beatMs = 60_000 / bpm;
  const window = index - (index % WINDOW_BEATS);
  const chunk = (start) => ({
    until: start + WINDOW_BEATS,
    items: [{ i: start + 10, at: t0 + (start + 10) * beatMs, view: { text: `cue ${start + 10}` } }],
  });
  return {
    score: { id: 'lean', title: 'Lean at the edge', bars: 400 },
    transport: 'playing',
    tempo: bpm,
    position: { index, bar: 1 + Math.floor(index / 4), beat: 1 + (index % 4), beats: 4, at: t0 + index * beatMs },
    section: { mark: 'A', name: 'Opening', bar: 1 },
    // The per-cue view: changes inside a window (the lean state keeps the window's first one).
    view: { text: index % WINDOW_BEATS >= 10 ? `cue ${window + 10}` : `window ${window}` },
    segment: { index: 0, bar: 1, beat: 1, beats: 4, at: t0, bpm, step: 0, until: 1600, end: true },
    ahead: { [window]: chunk(window), [window + WINDOW_BEATS]: chunk(window + WINDOW_BEATS) },
  };
}
