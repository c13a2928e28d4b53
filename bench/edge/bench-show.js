// What `npm run bench:edge` publishes: a playing show shaped like the venue's state (docs/README.md, the
// state and its flywheel: `position` every beat, a per-cue `view`, `segment`, and `ahead` in chunks
// of WINDOW_BEATS beats, 15 s at 120 bpm), encoded by the venue's own state stream, so the full
// stream carries one delta per beat and the lean stream (`?stream=lean`) one per chunk. The lean
// seq the edge will reach is counted with the venue's rule (core/stream/lean-state.js), so the run
// knows which lean seqs every lean viewer must have.

import { createStateStream } from '#core/stream/state-stream.js';
import { deriveLeanState } from '#core/stream/lean-state.js';
import { jsonEqual } from '#core/protocol/merge-patch.js';

/** Beats per `ahead` chunk: 15 s at one beat per 500 ms, as the venue's chunks. */
export const WINDOW_BEATS = 30;

/**
 * @param {{ epoch: string, beatMs: number, t0?: number }} options
 */
export function createBenchShow({ epoch, beatMs, t0 = Date.now() }) {
  const chunk = (start) => ({
    until: start + WINDOW_BEATS,
    items: [10, 20].map((k) => ({
      i: start + k,
      at: t0 + (start + k) * beatMs,
      view: { text: `Cue ${start + k}`, instruction: 'hum softly' },
    })),
  });
  /** @param {number} index */
  const stateAt = (index) => {
    const window = index - (index % WINDOW_BEATS);
    const cue = index % WINDOW_BEATS >= 20 ? 20 : index % WINDOW_BEATS >= 10 ? 10 : 0;
    return {
      score: { id: 'bench', title: 'Edge benchmark', composer: 'Tutti', bars: 400 },
      transport: 'playing',
      tempo: 120,
      position: { index, bar: 1 + Math.floor(index / 4), beat: 1 + (index % 4), beats: 4, at: t0 + index * beatMs + 300 },
      section: { mark: 'A', name: 'Opening', bar: 1 },
      view: { text: cue ? `Cue ${window + cue}` : 'Breathe in', instruction: 'hum softly', color: '#224466' },
      segment: { index: 0, bar: 1, beat: 1, beats: 4, at: t0 + 300, bpm: 120, step: 0, until: 1600, end: true },
      ahead: { [window]: chunk(window), [window + WINDOW_BEATS]: chunk(window + WINDOW_BEATS) },
    };
  };
  const stream = createStateStream({ epoch, state: stateAt(0), now: Date.now });
  let lean = deriveLeanState(null, stream.state());
  let leanSeq = 0;
  let beat = 0;
  return {
    /** The snapshot the publisher starts with (seq 0; the edge's lean stream starts at 0 too). */
    snapshot: () => stream.snapshot().json,
    /** The next beat's delta, stamped now. */
    next() {
      beat += 1;
      const update = /** @type {{ seq: number, json: string }} */ (stream.update(stateAt(beat)));
      const before = lean;
      lean = deriveLeanState(lean, stream.state());
      if (!jsonEqual(lean, before)) leanSeq += 1;
      return update;
    },
    /** The last seq of each stream so far. */
    seqs: () => ({ full: stream.seq(), lean: leanSeq }),
  };
}
