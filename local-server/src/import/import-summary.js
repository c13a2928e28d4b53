// What an import found, as lines for the terminal and the console: bars (written and played),
// time signatures, tempo changes, sections, parts, then every warning with its measure.

import { createTimeline } from '#core/score/timeline.js';
import { validateScore } from '#core/score/validate.js';

/** A tempo's own beat, named (a pickup's tempo in the next bar's beat). */
const NOTE_NAMES = { 1: 'whole notes', 2: 'halves', 4: 'quarters', 8: 'eighths', 16: 'sixteenths', 32: '32nds' };

/**
 * The lines `tutti import` prints and the console shows.
 * @param {import('./import-file.js').ImportResult} result
 * @param {string} file
 * @returns {string[]}
 */
export function describeImport(result, file) {
  const { score, warnings, written, kind } = result;
  // The import validated the score already; its normalized copy is what the timeline reads.
  const timeline = createTimeline(/** @type {any} */ (validateScore(score).score));
  const seconds = Math.round(timeline.msAt(timeline.totalBeats) / 1000);
  const at = (p) => `bar ${p.bar}${p.beat > 1 ? ` beat ${p.beat}` : ''}`;
  const list = (items, max = 12) =>
    items.length > max ? `${items.slice(0, max).join(' · ')} · … (${items.length - max} more)` : items.join(' · ');
  const lines = [
    `Imported ${file} (${kind}): "${score.title}"${score.composer ? ` by ${score.composer}` : ''}`,
    `  Bars:            ${score.bars} played${score.bars !== written ? ` (${written} written; repeats and endings played out)` : ''} · ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')} at the written tempo`,
    `  Time signatures: ${list(score.meter.map((m) => `${m.beats}/${m.unit}${m.count ? ` counted in ${m.count}` : ''} (bar ${m.bar})`))}`,
    `  Tempo:           ${score.tempo.length} mark${score.tempo.length === 1 ? '' : 's'}: ${list(score.tempo.map((t) => `${t.bpm}${t.to !== undefined ? `→${t.to}` : ''} bpm${t.unit ? ` (${NOTE_NAMES[t.unit]}${t.dotted ? ', dotted' : ''})` : ''} at ${at(t.at)}${t.to !== undefined ? ` until ${at(t.until)}` : ''}`))}`,
    `  Sections:        ${score.sections?.length ? list(score.sections.map((s) => `${s.mark} (${at(s.at)})`)) : 'none (no rehearsal marks)'}`,
    `  Parts:           ${score.parts?.length ? list(score.parts.map((p) => `${p.name} ${p.osc}`)) : 'none'}`,
  ];
  if (score.printedBars)
    lines.push(
      `  Printed bars:    kept as labels (${score.printedBars.length} run${score.printedBars.length === 1 ? '' : 's'}), shown beside the running count`,
    );
  if (warnings.length) {
    lines.push(`  ${warnings.length} warning${warnings.length === 1 ? '' : 's'}:`);
    for (const w of warnings) lines.push(`    ! ${/^(bar |\()/.test(w.measure) ? w.measure : `measure ${w.measure}`} ${w.message}`);
  }
  return lines;
}
