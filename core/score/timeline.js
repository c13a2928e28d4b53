// Tempo map → beat times. Every beat's start time (ms from the first beat, at the written
// tempo) is computed once from the score, so the engine never accumulates timer ticks: the time
// of beat k is always a lookup, exact to floating-point precision however long the show runs.

/**
 * @typedef {{ bar: number, beat: number }} Position
 * @typedef {object} Timeline
 * @property {number} bars
 * @property {number} totalBeats beats in the whole piece
 * @property {(bar: number, beat: number) => number} indexOf beat index (0-based) of a bar/beat
 * @property {(index: number) => Position & { beats: number }} positionOf bar/beat of a beat index
 * @property {(index: number) => number} bpmAt written rate of the beat at an index, in the bar's counted beats a minute
 * @property {(index: number) => number} tempoAt written tempo at an index as the tempo mark gives it (its own unit's bpm)
 * @property {(index: number) => number} msAt ms from the first beat to a (fractional) beat index
 * @property {(ms: number) => number} indexAtMs fractional beat index at a time (inverse of msAt)
 * @property {(bar: number) => number} beatsInBar
 * @property {(index: number) => number} segmentEnd first beat index after `index` where the meter or the tempo's course changes (totalBeats at the end)
 */

/**
 * Build the timeline of a validated, normalized score (see core/score/validate.js).
 * @param {{ bars: number, meter: Array<{ bar: number, beats: number, unit?: number, count?: number }>, tempo: Array<{ at: Position, bpm: number, to?: number, until?: Position, unit?: number, dotted?: boolean }> }} score
 * @returns {Timeline}
 */
export function createTimeline(score) {
  const { bars } = score;
  // barStart[b] = index of bar b's first beat (bars are 1-based; barStart[bars + 1] = totalBeats).
  const barStart = new Array(bars + 2).fill(0);
  const barBeats = new Array(bars + 2).fill(0);
  // Each bar's counted beat in whole notes (a 6/8 bar counted in 2: 3/8), for tempo marks that
  // count a note value of their own (docs/reference/meter.md#a-tempo-in-another-beat).
  const barBeatWhole = new Array(bars + 2).fill(0.25);
  let meterIndex = 0;
  for (let bar = 1; bar <= bars; bar += 1) {
    while (meterIndex + 1 < score.meter.length && score.meter[meterIndex + 1].bar <= bar) meterIndex += 1;
    const m = score.meter[meterIndex];
    barBeats[bar] = m.count ?? m.beats;
    barBeatWhole[bar] = m.unit ? m.beats / m.unit / barBeats[bar] : 0.25;
    barStart[bar + 1] = barStart[bar] + barBeats[bar];
  }
  const totalBeats = barStart[bars + 1];

  const indexOf = (bar, beat) => barStart[bar] + (beat - 1);

  // Written tempo of every beat; gradual changes are linear per beat between "at" and "until".
  // `tempo`: as the marks write it; `bpm`: the rate of the bar's counted beats, which differs
  // where a mark counts another note value (♩ = 100 over an eighth's pickup: 200 eighths).
  const tempo = new Float64Array(totalBeats);
  const bpm = new Float64Array(totalBeats);
  const marks = score.tempo.map((entry) => ({
    from: indexOf(entry.at.bar, entry.at.beat),
    bpm: entry.bpm,
    to: entry.to,
    until: entry.until ? indexOf(entry.until.bar, entry.until.beat) : undefined,
    beatWhole: entry.unit ? (entry.dotted ? 1.5 : 1) / entry.unit : undefined,
  }));
  let markIndex = 0;
  let bar = 1;
  for (let k = 0; k < totalBeats; k += 1) {
    while (markIndex + 1 < marks.length && marks[markIndex + 1].from <= k) markIndex += 1;
    while (barStart[bar + 1] <= k) bar += 1;
    const mark = marks[markIndex];
    if (mark.to !== undefined && mark.until !== undefined && k < mark.until) {
      tempo[k] = mark.bpm + ((mark.to - mark.bpm) * (k - mark.from)) / (mark.until - mark.from);
    } else {
      tempo[k] = mark.to ?? mark.bpm;
    }
    bpm[k] = mark.beatWhole === undefined ? tempo[k] : (tempo[k] * mark.beatWhole) / barBeatWhole[bar];
  }

  // start[k] = ms from beat 0 to beat k; start[totalBeats] = the end of the last beat.
  const start = new Float64Array(totalBeats + 1);
  for (let k = 0; k < totalBeats; k += 1) start[k + 1] = start[k] + 60000 / bpm[k];
  const lastDuration = 60000 / bpm[totalBeats - 1];

  const msAt = (index) => {
    if (index <= 0) return (index * 60000) / bpm[0];
    if (index >= totalBeats) return start[totalBeats] + (index - totalBeats) * lastDuration;
    const k = Math.floor(index);
    return start[k] + (index - k) * (60000 / bpm[k]);
  };

  const indexAtMs = (ms) => {
    if (ms <= 0) return (ms * bpm[0]) / 60000;
    if (ms >= start[totalBeats]) return totalBeats + (ms - start[totalBeats]) / lastDuration;
    let lo = 0;
    let hi = totalBeats; // invariant: start[lo] <= ms < start[hi]
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (start[mid] <= ms) lo = mid;
      else hi = mid;
    }
    return lo + (ms - start[lo]) / (60000 / bpm[lo]);
  };

  // Where a segment of steady meter and steady-or-linear tempo ends (core/engine/segment.js).
  const boundarySet = new Set([totalBeats]);
  for (const m of score.meter) boundarySet.add(barStart[m.bar]);
  for (const mark of marks) {
    boundarySet.add(mark.from);
    if (mark.until !== undefined) boundarySet.add(mark.until);
  }
  const boundaries = [...boundarySet].sort((a, b) => a - b);
  const segmentEnd = (index) => {
    let lo = 0;
    let hi = boundaries.length - 1; // boundaries.at(-1) = totalBeats > any beat index
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (boundaries[mid] <= index) lo = mid + 1;
      else hi = mid;
    }
    return boundaries[lo];
  };

  const positionOf = (index) => {
    const k = Math.min(Math.max(0, Math.floor(index)), totalBeats - 1);
    let lo = 1;
    let hi = bars; // find the last bar whose start ≤ k
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (barStart[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    return { bar: lo, beat: k - barStart[lo] + 1, beats: barBeats[lo] };
  };

  return {
    bars,
    totalBeats,
    indexOf,
    positionOf,
    bpmAt: (index) => bpm[Math.min(Math.max(0, Math.floor(index)), totalBeats - 1)],
    tempoAt: (index) => tempo[Math.min(Math.max(0, Math.floor(index)), totalBeats - 1)],
    msAt,
    indexAtMs,
    beatsInBar: (bar) => barBeats[bar] ?? 0,
    segmentEnd,
  };
}
