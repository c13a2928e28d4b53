// Performance order: the measures of a written score in the order they sound, with repeats,
// 1st/2nd endings, D.C., D.S., To Coda and Fine played out (docs/tutorials/first-piece.md#import-your-piece)
// . Runtime-free: the MusicXML and MIDI readers (local-server/src/import/) describe each
// written measure; this decides what is played when.

import { ImportError } from './import-error.js';

/**
 * A written measure as far as the order of play is concerned.
 * @typedef {object} FlowMeasure
 * @property {string} label the measure number as printed ("12", "0", "12a")
 * @property {boolean} [forwardRepeat] a forward repeat barline at its start
 * @property {number} [backwardRepeat] a backward repeat barline at its end: how many times the section is played (2 unless marked)
 * @property {number[]} [endingStart] a volta (1st/2nd ending) starts here, for these passes
 * @property {boolean} [endingStop] a volta ends with this measure
 * @property {string} [segno] a segno sign (its name) at its start
 * @property {string} [coda] a coda sign (its name) at its start: where "To Coda" jumps
 * @property {string} [tocoda] "To Coda" (the coda's name): after a D.C./D.S., jump to the coda after this measure
 * @property {boolean} [dacapo] D.C. after this measure
 * @property {string} [dalsegno] D.S. (the segno's name) after this measure
 * @property {boolean} [fine] Fine: after a D.C./D.S., the piece ends with this measure
 */

/**
 * One bar as played: which written measure, and the how-manieth time it sounds (1, 2, …).
 * @typedef {{ index: number, pass: number }} PlayedBar
 */

/**
 * Play the measures out. Repeats are taken `backwardRepeat` times (a repeat nested in another
 * in full on each pass of the outer one); an ending is played on the
 * passes it lists; after a D.C. or D.S. repeats are not taken again and only the last ending is
 * played (the usual convention), "To Coda" and "Fine" take effect. Jumps whose target is missing
 * are reported and ignored, as are measures that are never played.
 * @param {ReadonlyArray<FlowMeasure>} measures in written order
 * @param {{ maxBars: number, warn: (measure: string, message: string) => void }} options
 * @returns {PlayedBar[]}
 * @throws {ImportError} when more than `maxBars` bars would be played
 */
export function performanceOrder(measures, { maxBars, warn }) {
  const n = measures.length;
  const endingEnd = endingSpans(measures);
  const named = (key) => {
    /** @type {Map<string, number>} */
    const map = new Map();
    measures.forEach((m, i) => {
      if (m[key] !== undefined && !map.has(m[key])) map.set(m[key], i);
    });
    return map;
  };
  const segnos = named('segno');
  const codas = named('coda');
  const target = (map, name, what, measure) => {
    const found = map.get(name) ?? (map.size === 1 ? [...map.values()][0] : undefined);
    if (found === undefined) warn(measure.label, `${what} has no ${what === 'D.S.' ? 'segno' : 'coda'} sign to jump to; ignored`);
    return found;
  };

  /** @type {PlayedBar[]} */
  const order = [];
  const times = new Array(n).fill(0);
  const jumpsTaken = new Set();
  let pos = 0;
  /**
   * The repeated sections open at this point, innermost last, each with its pass. The bottom one
   * may be implicit: no forward repeat opened it, so a backward repeat goes back to the start or
   * to just after the last repeat or ending (the usual convention). A forward repeat inside an
   * open section opens a nested one (|: … |: … :| … :|), which is played out in full on every
   * pass of the outer one.
   * @type {Array<{ start: number, pass: number, implicit: boolean }>}
   */
  let open = [{ start: 0, pass: 1, implicit: true }];
  const innermost = () => open[open.length - 1];
  /** A section is done: the one around it carries on, or a new implicit one starts at `next`. */
  const close = (next) => {
    open.pop();
    if (open.length === 0) open = [{ start: next, pass: 1, implicit: true }];
  };
  /** The last section closed by its backward repeat: an ending right after it is on that section's last pass. */
  let closedAt = { pos: -2, pass: 1 };
  let jumped = false;
  while (pos < n) {
    const m = measures[pos];
    if (m.endingStart) {
      // An ending is on its section's pass, or (right after a repeat that has just closed, a
      // 2nd ending whose 1st ending was not marked) on that repeat's last pass.
      const pass = closedAt.pos === pos - 1 ? closedAt.pass : innermost().pass;
      const goesBack = measures[endingEnd[pos]].backwardRepeat !== undefined;
      const skip = jumped ? goesBack : !m.endingStart.includes(pass);
      if (skip) {
        pos = endingEnd[pos] + 1;
        continue;
      }
    }
    if (m.forwardRepeat) {
      const section = innermost();
      if (section.implicit) open[open.length - 1] = { start: pos, pass: section.start === pos ? section.pass : 1, implicit: false };
      else if (section.start === pos) {
        // Back at its own start on a later pass.
      } else if (m.endingStart) {
        open[open.length - 1] = { start: pos, pass: 1, implicit: false }; // a last ending that starts the next section
      } else open.push({ start: pos, pass: 1, implicit: false });
    }
    times[pos] += 1;
    order.push({ index: pos, pass: times[pos] });
    if (order.length > maxBars) {
      throw new ImportError(
        `with its repeats played out the piece has more than ${maxBars.toLocaleString('en')} bars, more than a score can hold`,
      );
    }
    if (jumped && m.fine) break;
    if (jumped && m.tocoda !== undefined) {
      const to = target(codas, m.tocoda, 'To Coda', m);
      if (to !== undefined && to > pos) {
        pos = to;
        open = [{ start: to, pass: 1, implicit: true }];
        continue;
      }
    }
    if (m.backwardRepeat !== undefined && !jumped) {
      const section = innermost();
      if (section.pass < m.backwardRepeat) {
        section.pass += 1;
        pos = section.start;
        continue;
      }
      closedAt = { pos, pass: section.pass };
      close(pos + 1);
    } else if (m.endingStop && !jumped && !repeatAhead(measures, pos)) {
      // The last ending is done: so is its section; the next repeat starts afresh after it. (A
      // 1st ending whose stop is written before its repeat barline leaves the section open.)
      close(pos + 1);
    }
    if ((m.dacapo || m.dalsegno !== undefined) && !jumpsTaken.has(pos)) {
      jumpsTaken.add(pos);
      const to = m.dacapo ? 0 : target(segnos, m.dalsegno, 'D.S.', m);
      if (to !== undefined) {
        jumped = true;
        pos = to;
        open = [{ start: to, pass: 1, implicit: true }];
        continue;
      }
    }
    pos += 1;
  }
  measures.forEach((m, i) => {
    if (times[i] === 0) warn(m.label, 'is never played (an ending no pass reaches, or after Fine); left out');
  });
  return order;
}

// Whether a backward repeat comes after `pos` before the next ending or forward repeat.
function repeatAhead(measures, pos) {
  for (let j = pos + 1; j < measures.length; j += 1) {
    if (measures[j].endingStart || measures[j].forwardRepeat) return false;
    if (measures[j].backwardRepeat !== undefined) return true;
  }
  return false;
}

// For every measure that starts an ending, the index of the measure that ends it: the first
// with endingStop at or after it, else the one before the next ending, else the last measure.
function endingSpans(measures) {
  const end = new Array(measures.length).fill(-1);
  measures.forEach((m, i) => {
    if (!m.endingStart) return;
    let j = i;
    while (j < measures.length - 1 && !measures[j].endingStop && !measures[j + 1].endingStart && measures[j].backwardRepeat === undefined)
      j += 1;
    end[i] = j;
  });
  return end;
}
