// Rules about when things happen in a score: positions `{ bar, beat }`, the meter (which also
// tells later rules how many beats each bar has), tempo marks and rehearsal sections.

import { describeValue } from './format-problems.js';
import { SCORE_LIMITS } from './validate-limits.js';
import {
  checkArray,
  checkEntry,
  checkInteger,
  checkKeys,
  checkNumber,
  checkString,
  has,
  isObject,
  join,
  own,
} from './validate-primitives.js';

/**
 * @typedef {import('./validate-primitives.js').CheckContext} CheckContext
 * @typedef {import('./validate-limits.js').ScoreEnv} ScoreEnv
 * @typedef {import('./validate-limits.js').Position} Position
 * @typedef {import('./validate-limits.js').MeterEntry} MeterEntry
 * @typedef {import('./validate-limits.js').TempoEntry} TempoEntry
 * @typedef {import('./validate-limits.js').Section} Section
 */

const METER_UNITS = [1, 2, 4, 8, 16, 32];

/**
 * A position as the composer reads it: `bar 5, beat 3`.
 * @param {Position} pos
 * @returns {string}
 */
export function positionText(pos) {
  return `bar ${pos.bar}, beat ${pos.beat}`;
}

/**
 * Order of two positions: negative when `a` comes first, 0 when equal.
 * @param {Position} a
 * @param {Position} b
 * @returns {number}
 */
export function compare(a, b) {
  return a.bar - b.bar || a.beat - b.beat;
}

/**
 * A position `{ bar, beat? }`; returns it normalized (explicit beat) or undefined when broken.
 * The bar is checked against `env.lastBar`, the beat against the meter once `env.beatsAt` is set.
 * @param {CheckContext} ctx
 * @param {unknown} value
 * @param {string} path
 * @param {ScoreEnv} env
 * @returns {Position | undefined}
 */
export function checkPosition(ctx, value, path, env) {
  if (!isObject(value)) {
    ctx.add(path, `expected a position such as { "bar": 5, "beat": 1 }, got ${describeValue(value)}`);
    return undefined;
  }
  checkKeys(ctx, value, path, ['bar', 'beat']);
  const bar = own(value, 'bar');
  const beat = has(value, 'beat') ? own(value, 'beat') : 1;
  let ok = true;
  const lastBar = env.lastBar ?? SCORE_LIMITS.bars;
  if (bar === undefined) {
    ctx.add(join(path, 'bar'), `missing: a position needs a bar number (1 to ${lastBar})`);
    ok = false;
  } else if (!Number.isInteger(bar)) {
    ctx.add(join(path, 'bar'), `expected a bar number (a whole number from 1 to ${lastBar}), got ${describeValue(bar)}`);
    ok = false;
  } else if (bar < 1) {
    ctx.add(join(path, 'bar'), `bar ${bar} does not exist; bars are numbered from 1`);
    ok = false;
  } else if (bar > lastBar) {
    ctx.add(join(path, 'bar'), `bar ${bar} is past the last bar (${lastBar})`);
    ok = false;
  }
  if (!Number.isInteger(beat)) {
    ctx.add(join(path, 'beat'), `expected a beat number (a whole number from 1), got ${describeValue(beat)}`);
    ok = false;
  } else if (beat < 1) {
    ctx.add(join(path, 'beat'), `beat ${beat} does not exist; beats are numbered from 1`);
    ok = false;
  } else if (ok && env.beatsAt) {
    const meter = env.beatsAt(bar);
    if (beat > meter.beats) {
      ctx.add(
        join(path, 'beat'),
        `beat ${beat} does not exist in bar ${bar}, which has ${meter.beats} beat${meter.beats === 1 ? '' : 's'} (${meterText(meter)})`,
      );
      ok = false;
    }
  } else if (beat > SCORE_LIMITS.beatsPerBar) {
    ctx.add(join(path, 'beat'), `beat ${beat} does not exist; no bar has more than ${SCORE_LIMITS.beatsPerBar} beats`);
    ok = false;
  }
  return ok ? { bar, beat } : undefined;
}

/**
 * The time signatures (required, in order, the first at bar 1). When they are all valid, sets
 * `env.beatsAt` so positions checked afterwards are checked against the meter.
 * @param {CheckContext} ctx
 * @param {any} value the score's `meter`
 * @param {ScoreEnv} env
 * @returns {MeterEntry[]}
 */
export function checkMeter(ctx, value, env) {
  const before = ctx.count();
  if (!checkArray(ctx, value, 'meter', SCORE_LIMITS.meterEntries, 'time signatures such as { "bar": 1, "beats": 4, "unit": 4 }', true))
    return [];
  const out = [];
  let previousBar;
  value.forEach((entry, i) => {
    const path = `meter[${i}]`;
    if (!checkEntry(ctx, entry, path, 'a time signature such as { "bar": 1, "beats": 4, "unit": 4 }', ['bar', 'beats', 'unit', 'count']))
      return;
    const bar = own(entry, 'bar');
    const beats = own(entry, 'beats');
    const unit = own(entry, 'unit');
    const count = own(entry, 'count');
    if (bar === undefined) ctx.add(`${path}.bar`, 'missing: the bar where this time signature starts');
    else if (checkInteger(ctx, bar, `${path}.bar`, 1, env.lastBar ?? SCORE_LIMITS.bars, 'the bar where this time signature starts')) {
      if (i === 0 && bar !== 1) ctx.add(`${path}.bar`, `the first time signature must start at bar 1, not bar ${bar}`);
      else if (previousBar !== undefined && bar <= previousBar) {
        ctx.add(
          `${path}.bar`,
          `bar ${bar} must come after the previous time signature's bar (${previousBar}); list time signatures in order, one per bar at most`,
        );
      }
      previousBar = bar;
    }
    if (beats === undefined) ctx.add(`${path}.beats`, `missing: the number of beats per bar (1 to ${SCORE_LIMITS.beatsPerBar})`);
    else checkInteger(ctx, beats, `${path}.beats`, 1, SCORE_LIMITS.beatsPerBar, 'the number of beats per bar');
    if (unit === undefined) ctx.add(`${path}.unit`, `missing: the note value of a beat (${METER_UNITS.join(', ')})`);
    else if (!METER_UNITS.includes(/** @type {number} */ (unit))) {
      ctx.add(`${path}.unit`, `the note value of a beat must be one of ${METER_UNITS.join(', ')}, got ${describeValue(unit)}`);
    }
    // docs/reference/meter.md#counted-beats: 6/8 counted in 2 is { beats: 6, unit: 8, count: 2 }.
    if (has(entry, 'count')) {
      if (checkInteger(ctx, count, `${path}.count`, 1, SCORE_LIMITS.beatsPerBar, 'the number of counted beats per bar')) {
        if (Number.isInteger(beats) && (count > beats || beats % count !== 0))
          ctx.add(
            `${path}.count`,
            `${beats}/${unit} cannot be counted in ${count}: the count must divide the ${beats} beats into equal beats`,
          );
      }
      out.push({ bar, beats, unit, count });
    } else out.push({ bar, beats, unit });
  });
  if (ctx.count() === before) {
    // Entries are valid and in order: the meter at a bar is the last entry starting at or before it.
    env.beatsAt = (bar) => {
      let lo = 0;
      let hi = out.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (out[mid].bar <= bar) lo = mid;
        else hi = mid - 1;
      }
      return countedMeter(out[lo]);
    };
  }
  return out;
}

/**
 * A meter entry as the show counts it: `beats` is the counted beats per bar (its `count` when it
 * has one), `printed` the signature as written (docs/reference/meter.md#counted-beats).
 * @param {MeterEntry} entry
 * @returns {{ bar: number, beats: number, unit: number, printed: number }}
 */
export function countedMeter(entry) {
  return { bar: entry.bar, beats: entry.count ?? entry.beats, unit: entry.unit, printed: entry.beats };
}

/**
 * A meter as a musician reads it: "4/4", "6/8 (counted in 2)".
 * @param {{ beats: number, unit: number, printed?: number }} meter a countedMeter
 * @returns {string}
 */
export function meterText(meter) {
  const printed = meter.printed ?? meter.beats;
  return printed === meter.beats ? `${printed}/${meter.unit}` : `${printed}/${meter.unit} (counted in ${meter.beats})`;
}

/**
 * The tempo marks (required, in order, the first at bar 1, beat 1); a gradual change (`to` and
 * `until`) must end after it starts and no later than the next mark. Check after the meter.
 * @param {CheckContext} ctx
 * @param {any} value the score's `tempo`
 * @param {ScoreEnv} env
 * @returns {TempoEntry[]}
 */
export function checkTempo(ctx, value, env) {
  if (!checkArray(ctx, value, 'tempo', SCORE_LIMITS.tempoEntries, 'tempo marks such as { "at": { "bar": 1 }, "bpm": 96 }', true)) return [];
  const out = [];
  /** @type {{ at: Position, until?: Position, path: string }[]} */
  const placed = [];
  value.forEach((entry, i) => {
    const path = `tempo[${i}]`;
    if (
      !checkEntry(ctx, entry, path, 'a tempo mark such as { "at": { "bar": 1 }, "bpm": 96 }', [
        'at',
        'bpm',
        'to',
        'until',
        'unit',
        'dotted',
      ])
    )
      return;
    const result = {};
    let at;
    if (!has(entry, 'at')) ctx.add(`${path}.at`, 'missing: where this tempo starts, e.g. { "bar": 1 }');
    else at = checkPosition(ctx, own(entry, 'at'), `${path}.at`, env);
    result.at = at;
    if (at && i === 0 && (at.bar !== 1 || at.beat !== 1))
      ctx.add(`${path}.at`, `the first tempo mark must be at bar 1, beat 1, not ${positionText(at)}`);
    if (!has(entry, 'bpm'))
      ctx.add(`${path}.bpm`, `missing: the tempo in beats per minute (${SCORE_LIMITS.bpmMin} to ${SCORE_LIMITS.bpmMax})`);
    else checkNumber(ctx, own(entry, 'bpm'), `${path}.bpm`, SCORE_LIMITS.bpmMin, SCORE_LIMITS.bpmMax, 'a tempo in beats per minute');
    result.bpm = own(entry, 'bpm');
    // docs/reference/meter.md#a-tempo-in-another-beat: bpm counting a note value of its own.
    if (has(entry, 'unit')) {
      if (!METER_UNITS.includes(/** @type {number} */ (own(entry, 'unit'))))
        ctx.add(
          `${path}.unit`,
          `the note value the tempo counts must be one of ${METER_UNITS.join(', ')}, got ${describeValue(own(entry, 'unit'))}`,
        );
      result.unit = own(entry, 'unit');
    }
    if (has(entry, 'dotted')) {
      if (own(entry, 'dotted') !== true)
        ctx.add(`${path}.dotted`, `expected true (a dotted unit) or no "dotted", got ${describeValue(own(entry, 'dotted'))}`);
      else if (!has(entry, 'unit')) ctx.add(`${path}.dotted`, 'a dotted tempo needs the "unit" it dots');
      result.dotted = true;
    }
    const hasTo = has(entry, 'to');
    const hasUntil = has(entry, 'until');
    let until;
    if (hasTo !== hasUntil) {
      ctx.add(
        path,
        hasTo
          ? 'has \'to\' but no \'until\': a gradual tempo change needs both, e.g. "to": 132, "until": { "bar": 13 }'
          : "has 'until' but no 'to': a gradual tempo change needs the tempo it reaches, e.g. \"to\": 132",
      );
    }
    if (hasTo) {
      checkNumber(
        ctx,
        own(entry, 'to'),
        `${path}.to`,
        SCORE_LIMITS.bpmMin,
        SCORE_LIMITS.bpmMax,
        'the tempo reached at "until", in beats per minute',
      );
      result.to = own(entry, 'to');
    }
    if (hasUntil) {
      until = checkPosition(ctx, own(entry, 'until'), `${path}.until`, env);
      if (until && at && compare(until, at) <= 0) {
        ctx.add(`${path}.until`, `the gradual change must end after it starts (${positionText(at)}), not at ${positionText(until)}`);
        until = undefined;
      }
      result.until = until;
    }
    if (at) {
      const previous = placed[placed.length - 1];
      if (previous && compare(at, previous.at) <= 0) {
        ctx.add(
          `${path}.at`,
          `${positionText(at)} must come after the previous tempo mark (${positionText(previous.at)}); list tempo marks in order`,
        );
      } else if (previous?.until && compare(previous.until, at) > 0) {
        ctx.add(
          `${previous.path}.until`,
          `the gradual change runs to ${positionText(previous.until)}, past the next tempo mark at ${positionText(at)}`,
        );
      }
      placed.push({ at, until, path });
    }
    out.push(result);
  });
  return out;
}

/**
 * The rehearsal sections (optional, in order). Check after the meter.
 * @param {CheckContext} ctx
 * @param {any} value the score's `sections`
 * @param {ScoreEnv} env
 * @returns {Section[]}
 */
export function checkSections(ctx, value, env) {
  if (!checkArray(ctx, value, 'sections', SCORE_LIMITS.sections, 'sections such as { "at": { "bar": 1 }, "mark": "A" }', false)) return [];
  const out = [];
  let previous;
  value.forEach((entry, i) => {
    const path = `sections[${i}]`;
    if (!checkEntry(ctx, entry, path, 'a section such as { "at": { "bar": 1 }, "mark": "A", "name": "Opening" }', ['at', 'mark', 'name']))
      return;
    const result = {};
    if (!has(entry, 'at')) ctx.add(`${path}.at`, 'missing: where the section starts, e.g. { "bar": 17 }');
    else {
      result.at = checkPosition(ctx, own(entry, 'at'), `${path}.at`, env);
      if (result.at && previous && compare(result.at, previous) <= 0) {
        ctx.add(
          `${path}.at`,
          `${positionText(result.at)} must come after the previous section (${positionText(previous)}); list sections in order`,
        );
      }
      if (result.at) previous = result.at;
    }
    if (!has(entry, 'mark')) ctx.add(`${path}.mark`, `missing: a rehearsal mark such as "A" (1 to ${SCORE_LIMITS.markChars} characters)`);
    else
      checkString(ctx, own(entry, 'mark'), `${path}.mark`, {
        min: 1,
        max: SCORE_LIMITS.markChars,
        what: 'the rehearsal mark',
        blank: false,
      });
    result.mark = own(entry, 'mark');
    if (has(entry, 'name')) {
      checkString(ctx, own(entry, 'name'), `${path}.name`, {
        min: 1,
        max: SCORE_LIMITS.titleChars,
        what: 'the section name',
        blank: false,
      });
      result.name = own(entry, 'name');
    }
    out.push(result);
  });
  return out;
}
