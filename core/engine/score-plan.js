// A validated score read once for playing (core/score/validate.js → this → the engine): its
// timeline, cues by beat, sections, assets, each part's OSC prefix and the `score` summary the
// state carries. The engine keeps only the clock and the transport; every lookup about the
// score itself is here.

import { createTimeline } from '#core/score/timeline.js';
import { mediaUrl } from '#core/score/audience-view.js';
import { createCueIndex } from '#core/score/cue-index.js';

/**
 * @typedef {{ index: number, mark: string, name?: string, bar: number }} PlannedSection
 * @typedef {ReturnType<typeof planScore>} ScorePlan
 */

/**
 * @param {any} score validated, normalized score
 */
export function planScore(score) {
  const timeline = createTimeline(score);
  /** @type {Map<string, any>} */
  const assets = new Map((score.assets ?? []).map((a) => [a.id, a]));
  /** @type {Map<string, string>} */
  const partPrefix = new Map((score.parts ?? []).map((p) => [p.id, p.osc ?? '']));
  /** @type {Array<any & { index: number, n: number }>} cues sorted by beat index, `n` their written order */
  const cues = (score.cues ?? [])
    .map((cue, n) => ({ ...cue, n, index: timeline.indexOf(cue.at.bar, cue.at.beat) }))
    .sort((a, b) => a.index - b.index || a.n - b.n);
  const cueIndex = createCueIndex({ cues, initialView: score.view, assets });
  /** @type {PlannedSection[]} */
  const sections = (score.sections ?? [])
    .map((s) => ({ index: timeline.indexOf(s.at.bar, s.at.beat), mark: s.mark, name: s.name, bar: s.at.bar }))
    .sort((a, b) => a.index - b.index);
  // Phones fetch and cache these when the listener joins, so no cue waits for a download.
  const audioMedia = (score.assets ?? []).filter((a) => a.kind === 'audio').map(mediaUrl);
  const summary = {
    id: score.id,
    title: score.title,
    ...(score.composer ? { composer: score.composer } : {}),
    bars: score.bars,
    ...(audioMedia.length ? { media: audioMedia } : {}),
  };

  return {
    score,
    timeline,
    assets,
    cues,
    cueIndex,
    /** The state's `score` (docs/reference/audience-protocol.md#endpoints). */
    summary,
    /**
     * The view after every view cue up to and including beat `index` (checkpointed: cue-index.js).
     * @param {number} index
     */
    viewAt: (index) => cueIndex.viewAt(index),
    /**
     * The section beat `index` is in, if any.
     * @param {number} index
     * @returns {PlannedSection | undefined}
     */
    sectionAt(index) {
      let found;
      for (const s of sections) {
        if (s.index > index) break;
        found = s;
      }
      return found;
    },
    /**
     * A cue's OSC address with its part's prefix (docs/reference/score-format.md#parts--id--name-osc--).
     * @param {{ address: string, part?: string }} osc
     */
    oscAddress: (osc) => (osc.part ? (partPrefix.get(osc.part) ?? '') : '') + osc.address,
    /** The slowest and fastest written tempo (a resume point's tempo override is judged against them). */
    writtenBpmRange() {
      let min = Infinity;
      let max = 0;
      for (let k = 0; k < timeline.totalBeats; k += 1) {
        min = Math.min(min, timeline.bpmAt(k));
        max = Math.max(max, timeline.bpmAt(k));
      }
      return { min, max };
    },
  };
}
