// What the console shows of a score (docs/reference/control-api.md#endpoints and the console's score card):
// metadata, sections with their times, length. A score's timeline is built once: the summary of a
// score object is computed the first time it is asked for and kept while the score lives (the
// console asks on every snapshot and every score load).

import { createTimeline } from '#core/score/timeline.js';

/** @type {WeakMap<object, ReturnType<typeof summarize>>} the summary of each score object, without its path */
const summaries = new WeakMap();

/** @param {any} score a validated score */
function summarize(score) {
  const timeline = createTimeline(score);
  return {
    id: score.id,
    title: score.title,
    composer: score.composer ?? null,
    bars: score.bars,
    path: /** @type {string | null} */ (null),
    totalBeats: timeline.totalBeats,
    durationMs: Math.round(timeline.msAt(timeline.totalBeats)),
    tempo: openingTempo(score),
    meter: score.meter.map((m) => ({ bar: m.bar, beats: m.beats, unit: m.unit, ...(m.count ? { count: m.count } : {}) })),
    sections: (score.sections ?? []).map((s) => ({
      mark: s.mark,
      name: s.name ?? null,
      bar: s.at.bar,
      beat: s.at.beat ?? 1,
      atMs: Math.round(timeline.msAt(timeline.indexOf(s.at.bar, s.at.beat ?? 1))),
    })),
    cues: (score.cues ?? []).length,
    parts: (score.parts ?? []).map((p) => p.name ?? p.id),
    printedBars: score.printedBars ?? null,
  };
}

// The tempo the piece opens at, in the beats it is counted in. An import now writes a pickup's
// tempo in the next bar's beat (`unit`: ♩ = 112 over an eighth's pickup), shown as it is. A score
// imported before that has the pickup's own beat (224 eighths a minute): given in the next bar's
// unit, 112.
function openingTempo(score) {
  const first = score.tempo?.[0]?.bpm;
  if (first === undefined) return null;
  if (score.tempo[0].unit) return first;
  const pickup = score.printedBars?.[0]?.bar === 1 && score.printedBars[0].number === 0;
  const next = score.meter.filter((m) => m.bar <= 2).at(-1);
  return pickup && next.bar === 2 ? (first * next.unit) / score.meter[0].unit : first;
}

/**
 * Summary of a validated score for the console: metadata, sections, length. The same score
 * object is summarized (its timeline built) once; `path` is filled in per call.
 * @param {any} score a validated score
 * @param {string | null} [path] the file it came from
 */
export function scoreSummary(score, path) {
  let summary = summaries.get(score);
  if (!summary) {
    summary = summarize(score);
    summaries.set(score, summary);
  }
  // `path` keeps its place among the keys (the spread puts it after `bars`).
  return { ...summary, path: path ?? null };
}
