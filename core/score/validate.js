// Checks a "tutti-score/1" score (scores/README.md) and returns every problem at once, worded for
// the composer, plus a normalized copy the timeline and engine can trust without re-checking.
// Input may be anything (parsed JSON, or worse): nothing here throws.

import { describeValue, didYouMean, formatProblems, quote } from './format-problems.js';

export { formatProblems };

/** The only format this validator understands. */
export const SCORE_FORMAT = 'tutti-score/1';

/** Size limits: a score beyond them is almost certainly a mistake, and they bound the work done here. */
export const SCORE_LIMITS = Object.freeze({
  bars: 10_000,
  beatsPerBar: 32,
  bpmMin: 10,
  bpmMax: 400,
  meterEntries: 10_000,
  tempoEntries: 10_000,
  sections: 1_000,
  parts: 64,
  assets: 256,
  cues: 100_000,
  titleChars: 200,
  textChars: 2_000,
  instructionChars: 500,
  labelChars: 200,
  markChars: 8,
  srcChars: 500,
  oscArgs: 32,
  oscStringChars: 1_000,
  dataDepth: 32,
  dataNodes: 20_000,
  dataChars: 65_536,
  problems: 100,
});

const METER_UNITS = [1, 2, 4, 8, 16, 32];
const SCORE_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const REF_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
// OSC 1.0: an address is "/"-separated parts of printable ASCII except space # * , / ? [ ] { }.
const OSC_ADDRESS = /^(?:\/[!"$-)+\-.0->@-Z\\^-z|~]+)+$/;
const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const EXTENSIONS = {
  audio: ['.wav', '.mp3', '.ogg', '.oga', '.opus', '.m4a', '.aac', '.flac', '.webm'],
  image: ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.svg', '.avif'],
};

// "$schema" is accepted (and dropped) so editors can offer completion from scores/score.schema.json.
const ROOT_KEYS = ['$schema', 'format', 'id', 'title', 'composer', 'bars', 'meter', 'tempo', 'sections', 'parts', 'assets', 'view', 'cues'];
const VIEW_KEYS = ['text', 'instruction', 'color', 'image', 'data'];
const CUE_KINDS = ['view', 'audio', 'osc'];

/**
 * @typedef {import('./format-problems.js').ScoreProblem} ScoreProblem
 * @typedef {{ bar: number, beat: number }} Position
 * @typedef {{ bar: number, beats: number, unit: number }} MeterEntry
 * @typedef {{ at: Position, bpm: number, to?: number, until?: Position }} TempoEntry
 * @typedef {{ at: Position, mark: string, name?: string }} Section
 * @typedef {{ id: string, name?: string, osc: string }} Part
 * @typedef {{ id: string, kind: 'audio' | 'image', src: string, bytes?: number }} Asset
 * @typedef {{ text?: string, instruction?: string, color?: string, image?: string, data?: Record<string, unknown> }} View
 * @typedef {{ at: Position, label?: string, view?: View, audio?: { asset: string, gain: number },
 *   osc?: { part?: string, address: string, args: Array<number | string | boolean> } }} Cue
 * @typedef {object} Score a validated, normalized score
 * @property {'tutti-score/1'} format
 * @property {string} id
 * @property {string} title
 * @property {string} [composer]
 * @property {number} bars
 * @property {MeterEntry[]} meter
 * @property {TempoEntry[]} tempo
 * @property {Section[]} sections  always present (empty when the score has none)
 * @property {Part[]} parts        always present
 * @property {Asset[]} assets      always present
 * @property {View} view           always present (`{}` when the score has none)
 * @property {Cue[]} cues          always present, sorted stably by position
 * @typedef {{ ok: boolean, problems: ScoreProblem[], score?: Score }} ValidationResult
 */

/**
 * Validate a parsed score. Reports every problem at once (up to SCORE_LIMITS.problems, then one
 * line saying how many more). When ok, `score` is a normalized deep copy: every position has an
 * explicit beat, audio gain defaults to 1, osc args default to [], the optional lists default to
 * [] and view to {}, and cues are sorted stably by (bar, beat). Never throws.
 * @param {unknown} value the parsed JSON
 * @returns {ValidationResult}
 */
export function validateScore(value) {
  const ctx = createContext();
  let score;
  try {
    score = checkScore(ctx, value);
  } catch (error) {
    // Only reachable for inputs JSON cannot produce (throwing getters, proxies, stack exhaustion).
    ctx.add('', `the score could not be read: ${error instanceof Error ? error.message : describeValue(error)}`);
  }
  const problems = ctx.finish();
  return problems.length === 0 && score ? { ok: true, problems, score } : { ok: false, problems };
}

function createContext() {
  /** @type {ScoreProblem[]} */
  const problems = [];
  let hidden = 0;
  return {
    /** @param {string} path @param {string} message */
    add(path, message) {
      if (problems.length < SCORE_LIMITS.problems) problems.push({ path: path || '(root)', message });
      else hidden++;
    },
    count: () => problems.length + hidden,
    finish() {
      // Rules run in dependency order (bars before positions, assets before references, a tempo
      // mark checked against the next one); report in file order.
      const sorted = sortProblems(problems);
      if (hidden > 0) sorted.push({ path: '(root)', message: `${hidden} more problem${hidden === 1 ? '' : 's'} not shown; fix the ones above first` });
      return sorted;
    },
  };
}

/**
 * Problems in file order (stable): `(root)` first, then by top-level key in the order the format
 * lists them, then by entry index (`cues[3]` before `cues[12]`). Returns a new array.
 * @param {ReadonlyArray<ScoreProblem>} problems
 * @returns {ScoreProblem[]}
 */
export function sortProblems(problems) {
  const key = (p) => (p.path === '(root)' ? -1 : ROOT_KEYS.indexOf(p.path.split(/[.[]/, 1)[0]));
  const entry = (p) => Number(/^[^.[]*\[(\d+)\]/.exec(p.path)?.[1] ?? -1);
  return problems
    .map((p, i) => ({ p, i, key: key(p), entry: entry(p) }))
    .sort((a, b) => a.key - b.key || a.entry - b.entry || a.i - b.i)
    .map((e) => e.p);
}

// ---------------------------------------------------------------- helpers

/** @returns {value is Record<string, unknown>} */
function isObject(value) {
  // toString rather than a prototype check: objects from another realm (vm, workers) are fine too.
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.prototype.toString.call(value) === '[object Object]';
}

function own(obj, key) {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

function has(obj, key) {
  return Object.hasOwn(obj, key);
}

function join(path, key) {
  return path ? `${path}.${key}` : key;
}

/** Length in code points (as JSON Schema's maxLength counts), so an emoji counts once. */
function chars(text) {
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}

function list(items) {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function checkKeys(ctx, obj, path, allowed) {
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key)) continue;
    const guess = didYouMean(key, allowed);
    const hint = guess ? `did you mean '${guess}'?` : `allowed here: ${allowed.join(', ')}`;
    ctx.add(path, `unknown key ${quote(key).replace(/^"|"$/g, "'")} (${hint})`);
  }
}

function article(noun) {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/** A value as shown in "X is not a valid Y": strings in quotes, anything else described. */
function shown(value) {
  return typeof value === 'string' ? quote(value) : describeValue(value);
}

function positionText(pos) {
  return `bar ${pos.bar}, beat ${pos.beat}`;
}

function compare(a, b) {
  return a.bar - b.bar || a.beat - b.beat;
}

function checkInteger(ctx, value, path, min, max, what) {
  if (Number.isInteger(value) && value >= min && value <= max) return true;
  ctx.add(path, `expected ${what}, a whole number from ${min} to ${max}, got ${describeValue(value)}`);
  return false;
}

function checkNumber(ctx, value, path, min, max, what) {
  if (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max) return true;
  ctx.add(path, `expected ${what}, a number from ${min} to ${max}, got ${describeValue(value)}`);
  return false;
}

function checkString(ctx, value, path, { min = 0, max, what, blank = true }) {
  if (typeof value !== 'string') {
    ctx.add(path, `expected ${what} (text in double quotes), got ${describeValue(value)}`);
    return false;
  }
  const n = chars(value);
  if (n < min || (!blank && value.trim() === '')) {
    ctx.add(path, `${what} is empty; write at least ${min} character${min === 1 ? '' : 's'}`);
    return false;
  }
  if (n > max) {
    ctx.add(path, `${what} is ${n} characters long; the limit is ${max}`);
    return false;
  }
  return true;
}

function checkArray(ctx, value, path, max, what, required) {
  if (value === undefined && !required) return false;
  if (!Array.isArray(value)) {
    ctx.add(path, value === undefined ? `missing: ${what}` : `expected a list [ ... ] of ${what}, got ${describeValue(value)}`);
    return false;
  }
  if (value.length > max) {
    ctx.add(path, `${value.length} entries is more than the limit of ${max}`);
    return false;
  }
  if (required && value.length === 0) {
    ctx.add(path, `the list is empty: ${what}`);
    return false;
  }
  return true;
}

function checkEntry(ctx, value, path, what, keys) {
  if (!isObject(value)) {
    ctx.add(path, `expected ${what} (an object { ... }), got ${describeValue(value)}`);
    return false;
  }
  checkKeys(ctx, value, path, keys);
  return true;
}

// ---------------------------------------------------------------- the score

function checkScore(ctx, value) {
  if (!isObject(value)) {
    ctx.add('', `a score must be a JSON object { "format": "${SCORE_FORMAT}", ... }, got ${describeValue(value)}`);
    return undefined;
  }
  checkKeys(ctx, value, '', ROOT_KEYS);
  const out = {};
  if (has(value, '$schema') && typeof own(value, '$schema') !== 'string') {
    ctx.add('$schema', `expected the path or URL of the JSON Schema (text), got ${describeValue(own(value, '$schema'))}`);
  }

  const format = own(value, 'format');
  if (format === undefined) ctx.add('format', `missing: a score starts with "format": "${SCORE_FORMAT}"`);
  else if (format !== SCORE_FORMAT) ctx.add('format', `${shown(format)} is not a format this version reads; expected "${SCORE_FORMAT}"`);
  out.format = SCORE_FORMAT;

  const id = own(value, 'id');
  if (id === undefined) ctx.add('id', 'missing: give the score a short id such as "my-piece" (lowercase letters, digits, dashes)');
  else if (typeof id !== 'string' || !SCORE_ID.test(id)) {
    ctx.add('id', `${shown(id)} is not a valid score id; use 1 to 64 lowercase letters, digits and dashes, starting with a letter or digit (e.g. "my-piece")`);
  }
  out.id = id;

  const title = own(value, 'title');
  if (title === undefined) ctx.add('title', `missing: give the piece a title (1 to ${SCORE_LIMITS.titleChars} characters)`);
  else checkString(ctx, title, 'title', { min: 1, max: SCORE_LIMITS.titleChars, what: 'the title', blank: false });
  out.title = title;

  if (has(value, 'composer')) {
    checkString(ctx, own(value, 'composer'), 'composer', { min: 1, max: SCORE_LIMITS.titleChars, what: 'the composer', blank: false });
    out.composer = own(value, 'composer');
  }

  const bars = own(value, 'bars');
  let lastBar;
  if (bars === undefined) ctx.add('bars', `missing: the total number of bars (a whole number from 1 to ${SCORE_LIMITS.bars})`);
  else if (checkInteger(ctx, bars, 'bars', 1, SCORE_LIMITS.bars, 'the total number of bars')) lastBar = bars;
  out.bars = bars;

  const env = { lastBar, beatsAt: undefined, assets: new Map(), parts: new Map() };
  out.meter = checkMeter(ctx, own(value, 'meter'), env);
  out.parts = checkParts(ctx, own(value, 'parts'), env);
  out.assets = checkAssets(ctx, own(value, 'assets'), env);
  out.tempo = checkTempo(ctx, own(value, 'tempo'), env);
  out.sections = checkSections(ctx, own(value, 'sections'), env);
  out.view = has(value, 'view') ? checkView(ctx, own(value, 'view'), 'view', env, true) : {};
  out.cues = checkCues(ctx, own(value, 'cues'), env);
  return /** @type {Score} */ (out);
}

// ---------------------------------------------------------------- positions and meter

/** A position `{ bar, beat? }`; returns it normalized (explicit beat) or undefined when broken. */
function checkPosition(ctx, value, path, env) {
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
      ctx.add(join(path, 'beat'), `beat ${beat} does not exist in bar ${bar}, which has ${meter.beats} beat${meter.beats === 1 ? '' : 's'} (${meter.beats}/${meter.unit})`);
      ok = false;
    }
  } else if (beat > SCORE_LIMITS.beatsPerBar) {
    ctx.add(join(path, 'beat'), `beat ${beat} does not exist; no bar has more than ${SCORE_LIMITS.beatsPerBar} beats`);
    ok = false;
  }
  return ok ? { bar, beat } : undefined;
}

function checkMeter(ctx, value, env) {
  const before = ctx.count();
  if (!checkArray(ctx, value, 'meter', SCORE_LIMITS.meterEntries, 'time signatures such as { "bar": 1, "beats": 4, "unit": 4 }', true)) return [];
  const out = [];
  let previousBar;
  value.forEach((entry, i) => {
    const path = `meter[${i}]`;
    if (!checkEntry(ctx, entry, path, 'a time signature such as { "bar": 1, "beats": 4, "unit": 4 }', ['bar', 'beats', 'unit'])) return;
    const bar = own(entry, 'bar');
    const beats = own(entry, 'beats');
    const unit = own(entry, 'unit');
    if (bar === undefined) ctx.add(`${path}.bar`, 'missing: the bar where this time signature starts');
    else if (checkInteger(ctx, bar, `${path}.bar`, 1, env.lastBar ?? SCORE_LIMITS.bars, 'the bar where this time signature starts')) {
      if (i === 0 && bar !== 1) ctx.add(`${path}.bar`, `the first time signature must start at bar 1, not bar ${bar}`);
      else if (previousBar !== undefined && bar <= previousBar) {
        ctx.add(`${path}.bar`, `bar ${bar} must come after the previous time signature's bar (${previousBar}); list time signatures in order, one per bar at most`);
      }
      previousBar = bar;
    }
    if (beats === undefined) ctx.add(`${path}.beats`, `missing: the number of beats per bar (1 to ${SCORE_LIMITS.beatsPerBar})`);
    else checkInteger(ctx, beats, `${path}.beats`, 1, SCORE_LIMITS.beatsPerBar, 'the number of beats per bar');
    if (unit === undefined) ctx.add(`${path}.unit`, `missing: the note value of a beat (${METER_UNITS.join(', ')})`);
    else if (!METER_UNITS.includes(/** @type {number} */ (unit))) {
      ctx.add(`${path}.unit`, `the note value of a beat must be one of ${METER_UNITS.join(', ')}, got ${describeValue(unit)}`);
    }
    out.push({ bar, beats, unit });
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
      return out[lo];
    };
  }
  return out;
}

// ---------------------------------------------------------------- tempo and sections

function checkTempo(ctx, value, env) {
  if (!checkArray(ctx, value, 'tempo', SCORE_LIMITS.tempoEntries, 'tempo marks such as { "at": { "bar": 1 }, "bpm": 96 }', true)) return [];
  const out = [];
  /** @type {{ at: Position, until?: Position, path: string }[]} */
  const placed = [];
  value.forEach((entry, i) => {
    const path = `tempo[${i}]`;
    if (!checkEntry(ctx, entry, path, 'a tempo mark such as { "at": { "bar": 1 }, "bpm": 96 }', ['at', 'bpm', 'to', 'until'])) return;
    const result = {};
    let at;
    if (!has(entry, 'at')) ctx.add(`${path}.at`, 'missing: where this tempo starts, e.g. { "bar": 1 }');
    else at = checkPosition(ctx, own(entry, 'at'), `${path}.at`, env);
    result.at = at;
    if (at && i === 0 && (at.bar !== 1 || at.beat !== 1)) ctx.add(`${path}.at`, `the first tempo mark must be at bar 1, beat 1, not ${positionText(at)}`);
    if (!has(entry, 'bpm')) ctx.add(`${path}.bpm`, `missing: the tempo in beats per minute (${SCORE_LIMITS.bpmMin} to ${SCORE_LIMITS.bpmMax})`);
    else checkNumber(ctx, own(entry, 'bpm'), `${path}.bpm`, SCORE_LIMITS.bpmMin, SCORE_LIMITS.bpmMax, 'a tempo in beats per minute');
    result.bpm = own(entry, 'bpm');
    const hasTo = has(entry, 'to');
    const hasUntil = has(entry, 'until');
    let until;
    if (hasTo !== hasUntil) {
      ctx.add(path, hasTo
        ? "has 'to' but no 'until': a gradual tempo change needs both, e.g. \"to\": 132, \"until\": { \"bar\": 13 }"
        : "has 'until' but no 'to': a gradual tempo change needs the tempo it reaches, e.g. \"to\": 132");
    }
    if (hasTo) {
      checkNumber(ctx, own(entry, 'to'), `${path}.to`, SCORE_LIMITS.bpmMin, SCORE_LIMITS.bpmMax, 'the tempo reached at "until", in beats per minute');
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
        ctx.add(`${path}.at`, `${positionText(at)} must come after the previous tempo mark (${positionText(previous.at)}); list tempo marks in order`);
      } else if (previous?.until && compare(previous.until, at) > 0) {
        ctx.add(`${previous.path}.until`, `the gradual change runs to ${positionText(previous.until)}, past the next tempo mark at ${positionText(at)}`);
      }
      placed.push({ at, until, path });
    }
    out.push(result);
  });
  return out;
}

function checkSections(ctx, value, env) {
  if (!checkArray(ctx, value, 'sections', SCORE_LIMITS.sections, 'sections such as { "at": { "bar": 1 }, "mark": "A" }', false)) return [];
  const out = [];
  let previous;
  value.forEach((entry, i) => {
    const path = `sections[${i}]`;
    if (!checkEntry(ctx, entry, path, 'a section such as { "at": { "bar": 1 }, "mark": "A", "name": "Opening" }', ['at', 'mark', 'name'])) return;
    const result = {};
    if (!has(entry, 'at')) ctx.add(`${path}.at`, 'missing: where the section starts, e.g. { "bar": 17 }');
    else {
      result.at = checkPosition(ctx, own(entry, 'at'), `${path}.at`, env);
      if (result.at && previous && compare(result.at, previous) <= 0) {
        ctx.add(`${path}.at`, `${positionText(result.at)} must come after the previous section (${positionText(previous)}); list sections in order`);
      }
      if (result.at) previous = result.at;
    }
    if (!has(entry, 'mark')) ctx.add(`${path}.mark`, `missing: a rehearsal mark such as "A" (1 to ${SCORE_LIMITS.markChars} characters)`);
    else checkString(ctx, own(entry, 'mark'), `${path}.mark`, { min: 1, max: SCORE_LIMITS.markChars, what: 'the rehearsal mark', blank: false });
    result.mark = own(entry, 'mark');
    if (has(entry, 'name')) {
      checkString(ctx, own(entry, 'name'), `${path}.name`, { min: 1, max: SCORE_LIMITS.titleChars, what: 'the section name', blank: false });
      result.name = own(entry, 'name');
    }
    out.push(result);
  });
  return out;
}

// ---------------------------------------------------------------- parts and assets

function checkId(ctx, entry, path, seen, what) {
  const id = own(entry, 'id');
  if (id === undefined) {
    ctx.add(`${path}.id`, `missing: give the ${what} an id such as "${what === 'part' ? 'vln' : 'bell'}" for cues to refer to`);
    return false;
  }
  if (typeof id !== 'string' || !REF_ID.test(id)) {
    ctx.add(`${path}.id`, `${shown(id)} is not a valid ${what} id; use 1 to 64 letters, digits, "-" or "_", starting with a letter or digit`);
    return false;
  }
  if (seen.has(id)) {
    ctx.add(`${path}.id`, `${quote(id)} is already the id of ${seen.get(id).path}; ${what} ids must be unique`);
    return false;
  }
  return true;
}

function checkOscAddress(ctx, value, path, what) {
  if (typeof value !== 'string') {
    ctx.add(path, `expected ${what} (text starting with "/"), got ${describeValue(value)}`);
    return false;
  }
  if (OSC_ADDRESS.test(value)) return true;
  let reason;
  if (!value.startsWith('/')) reason = 'it must start with "/"';
  else if (value.endsWith('/')) reason = 'it must not end with "/"';
  else if (value.includes('//')) reason = 'it has an empty part ("//")';
  else if (/\s/.test(value)) reason = 'it contains a space';
  else reason = 'OSC addresses use printable ASCII except # * , ? [ ] { }';
  ctx.add(path, `${quote(value)} is not a valid ${what}: ${reason}`);
  return false;
}

function checkParts(ctx, value, env) {
  if (!checkArray(ctx, value, 'parts', SCORE_LIMITS.parts, 'parts such as { "id": "vln", "name": "Violin", "osc": "/vln" }', false)) return [];
  const out = [];
  value.forEach((entry, i) => {
    const path = `parts[${i}]`;
    if (!checkEntry(ctx, entry, path, 'a part such as { "id": "vln", "name": "Violin", "osc": "/vln" }', ['id', 'name', 'osc'])) return;
    const result = { id: own(entry, 'id') };
    if (checkId(ctx, entry, path, env.parts, 'part')) env.parts.set(result.id, { path });
    if (has(entry, 'name')) {
      checkString(ctx, own(entry, 'name'), `${path}.name`, { min: 1, max: SCORE_LIMITS.titleChars, what: 'the part name', blank: false });
      result.name = own(entry, 'name');
    }
    if (!has(entry, 'osc')) ctx.add(`${path}.osc`, 'missing: the OSC address prefix of this part, such as "/vln"');
    else checkOscAddress(ctx, own(entry, 'osc'), `${path}.osc`, 'OSC address prefix');
    result.osc = own(entry, 'osc');
    out.push(result);
  });
  return out;
}

function srcProblem(src, kind) {
  if (src === '') return 'it is empty';
  if (URL_SCHEME.test(src)) return 'it must be a file path next to the score, not a URL';
  if (src.startsWith('/')) return 'it must be relative to the score file, not start with "/"';
  if (src.includes('\\')) return 'use "/" between folders, not "\\"';
  const parts = src.split('/');
  if (parts.includes('..')) return 'it must not go up a folder with ".."';
  if (parts.some((p) => p === '' || p === '.')) return 'it has an empty or "." folder name';
  // ? # % would change the media URL the phones fetch; control characters are never intended.
  if (/[?#%]/.test(src) || [...src].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f')) return 'it must not contain ?, #, % or control characters';
  const lower = src.toLowerCase();
  const extensions = EXTENSIONS[kind];
  if (extensions && !extensions.some((ext) => lower.endsWith(ext))) return `an ${kind} file should end in ${extensions.join(', ')}`;
  return undefined;
}

function checkAssets(ctx, value, env) {
  if (!checkArray(ctx, value, 'assets', SCORE_LIMITS.assets, 'media files such as { "id": "bell", "kind": "audio", "src": "media/bell.wav" }', false)) return [];
  const out = [];
  value.forEach((entry, i) => {
    const path = `assets[${i}]`;
    if (!checkEntry(ctx, entry, path, 'a media file such as { "id": "bell", "kind": "audio", "src": "media/bell.wav" }', ['id', 'kind', 'src', 'bytes'])) return;
    const result = { id: own(entry, 'id'), kind: own(entry, 'kind'), src: own(entry, 'src') };
    const kind = result.kind;
    const kindOk = kind === 'audio' || kind === 'image';
    if (kind === undefined) ctx.add(`${path}.kind`, 'missing: "audio" or "image"');
    else if (!kindOk) ctx.add(`${path}.kind`, `the kind must be "audio" or "image", got ${describeValue(kind)}`);
    // Register even a half-broken asset so that cues referring to it do not add follow-on problems.
    if (checkId(ctx, entry, path, env.assets, 'asset')) env.assets.set(result.id, { path, kind: kindOk ? kind : undefined });
    const src = result.src;
    if (src === undefined) ctx.add(`${path}.src`, 'missing: the file path relative to the score, e.g. "media/bell.wav"');
    else if (typeof src !== 'string') ctx.add(`${path}.src`, `expected a file path relative to the score (text), got ${describeValue(src)}`);
    else if (chars(src) > SCORE_LIMITS.srcChars) ctx.add(`${path}.src`, `the path is longer than ${SCORE_LIMITS.srcChars} characters`);
    else {
      const problem = srcProblem(src, kindOk ? kind : undefined);
      if (problem) ctx.add(`${path}.src`, `${quote(src)} is not a usable file path: ${problem}`);
    }
    if (has(entry, 'bytes')) {
      checkInteger(ctx, own(entry, 'bytes'), `${path}.bytes`, 0, Number.MAX_SAFE_INTEGER, 'the file size in bytes');
      result.bytes = own(entry, 'bytes');
    }
    out.push(result);
  });
  return out;
}

function checkReference(ctx, value, path, registry, kind, noun) {
  if (typeof value !== 'string') {
    ctx.add(path, `expected the id of ${article(noun)} (text), got ${describeValue(value)}`);
    return false;
  }
  const found = registry.get(value);
  if (!found) {
    const known = [...registry.entries()].filter(([, e]) => !kind || e.kind === kind).map(([id]) => id);
    const guess = didYouMean(value, known);
    const hint = guess ? `did you mean ${quote(guess)}?` : known.length ? `known: ${known.slice(0, 10).join(', ')}` : 'the score declares none';
    ctx.add(path, `there is no ${noun} with id ${quote(value)} (${hint})`);
    return false;
  }
  if (kind && found.kind && found.kind !== kind) {
    ctx.add(path, `${quote(value)} is ${article(`${found.kind} asset`)} (${found.path}), not ${article(noun)}`);
    return false;
  }
  return true;
}

// ---------------------------------------------------------------- views and cues

function checkView(ctx, value, path, env, initial) {
  if (!isObject(value)) {
    ctx.add(path, `expected a view such as { "text": "Welcome", "color": "#101820" }, got ${describeValue(value)}`);
    return {};
  }
  checkKeys(ctx, value, path, VIEW_KEYS);
  const out = {};
  for (const key of VIEW_KEYS) {
    if (!has(value, key)) continue;
    const member = own(value, key);
    out[key] = member;
    // A cue's view is merged into the audience view (RFC 7396), so null there removes the key.
    if (member === null) {
      if (initial) ctx.add(join(path, key), `the initial view has nothing to remove; leave out "${key}" instead of writing null`);
      continue;
    }
    const at = join(path, key);
    if (key === 'text') checkString(ctx, member, at, { max: SCORE_LIMITS.textChars, what: 'the text' });
    else if (key === 'instruction') checkString(ctx, member, at, { max: SCORE_LIMITS.instructionChars, what: 'the instruction' });
    else if (key === 'color') {
      if (typeof member !== 'string' || !COLOR.test(member)) ctx.add(at, `expected a colour written #rgb or #rrggbb (e.g. "#1a1a2e"), got ${describeValue(member)}`);
    } else if (key === 'image') checkReference(ctx, member, at, env.assets, 'image', 'image asset');
    else if (!isObject(member)) ctx.add(at, `expected an object { ... } of free-form values, got ${describeValue(member)}`);
    else if (checkData(ctx, member, at)) out.data = JSON.parse(JSON.stringify(member));
  }
  if (!initial && Object.keys(value).length === 0) ctx.add(path, `the view is empty; give at least one of ${list(VIEW_KEYS)}`);
  return out;
}

/** Free-form JSON: plain values only, bounded depth, node count and size; no "__proto__" keys. */
function checkData(ctx, data, path) {
  let nodes = 0;
  let ok = true;
  const walk = (value, at, depth) => {
    if (!ok) return;
    if (++nodes > SCORE_LIMITS.dataNodes) {
      ctx.add(path, `too many values (more than ${SCORE_LIMITS.dataNodes}); keep view data small`);
      ok = false;
    } else if (depth > SCORE_LIMITS.dataDepth) {
      ctx.add(at, `nested more than ${SCORE_LIMITS.dataDepth} levels deep`);
      ok = false;
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${at}[${i}]`, depth + 1));
    } else if (isObject(value)) {
      for (const key of Object.keys(value)) {
        if (key === '__proto__') {
          ctx.add(at, 'the key "__proto__" is not allowed in view data');
          ok = false;
          return;
        }
        walk(value[key], /^[A-Za-z_$][\w$]*$/.test(key) ? `${at}.${key}` : `${at}[${quote(key)}]`, depth + 1);
      }
    } else if (!(value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))) {
      ctx.add(at, `view data holds JSON values only (text, numbers, true/false, null, lists, objects), got ${describeValue(value)}`);
      ok = false;
    }
  };
  walk(data, path, 0);
  if (!ok) return false;
  const size = JSON.stringify(data).length;
  if (size > SCORE_LIMITS.dataChars) {
    ctx.add(path, `the data is ${Math.ceil(size / 1024)} KB as JSON; the limit is ${SCORE_LIMITS.dataChars / 1024} KB per view`);
    return false;
  }
  return true;
}

function checkAudio(ctx, value, path, env) {
  if (!checkEntry(ctx, value, path, 'an audio cue such as { "asset": "bell", "gain": 0.8 }', ['asset', 'gain'])) return undefined;
  if (!has(value, 'asset')) ctx.add(`${path}.asset`, 'missing: the id of the audio asset to play');
  else checkReference(ctx, own(value, 'asset'), `${path}.asset`, env.assets, 'audio', 'audio asset');
  const gain = has(value, 'gain') ? own(value, 'gain') : 1;
  checkNumber(ctx, gain, `${path}.gain`, 0, 2, 'a gain (1 = as recorded)');
  return { asset: own(value, 'asset'), gain };
}

function checkOsc(ctx, value, path, env) {
  if (!checkEntry(ctx, value, path, 'an OSC cue such as { "address": "/cue", "args": [1] }', ['part', 'address', 'args'])) return undefined;
  const out = {};
  if (has(value, 'part')) {
    checkReference(ctx, own(value, 'part'), `${path}.part`, env.parts, undefined, 'part');
    out.part = own(value, 'part');
  }
  if (!has(value, 'address')) ctx.add(`${path}.address`, 'missing: the OSC address to send, such as "/cue"');
  else checkOscAddress(ctx, own(value, 'address'), `${path}.address`, 'OSC address');
  out.address = own(value, 'address');
  const args = has(value, 'args') ? own(value, 'args') : [];
  if (!Array.isArray(args)) ctx.add(`${path}.args`, `expected a list [ ... ] of OSC arguments, got ${describeValue(args)}`);
  else if (args.length > SCORE_LIMITS.oscArgs) ctx.add(`${path}.args`, `${args.length} arguments is more than the limit of ${SCORE_LIMITS.oscArgs}`);
  else {
    args.forEach((arg, i) => {
      const at = `${path}.args[${i}]`;
      if (typeof arg === 'string') {
        if (chars(arg) > SCORE_LIMITS.oscStringChars) ctx.add(at, `the text is longer than ${SCORE_LIMITS.oscStringChars} characters`);
      } else if (!(typeof arg === 'boolean' || (typeof arg === 'number' && Number.isFinite(arg)))) {
        ctx.add(at, `OSC arguments can be numbers, text or true/false, got ${describeValue(arg)}`);
      }
    });
  }
  out.args = Array.isArray(args) ? [...args] : args;
  return out;
}

function checkCues(ctx, value, env) {
  if (!checkArray(ctx, value, 'cues', SCORE_LIMITS.cues, 'cues such as { "at": { "bar": 5 }, "view": { "text": "Now" } }', false)) return [];
  const out = [];
  value.forEach((cue, i) => {
    const path = `cues[${i}]`;
    if (!checkEntry(ctx, cue, path, 'a cue such as { "at": { "bar": 5 }, "view": { "text": "Now" } }', ['at', 'label', ...CUE_KINDS])) return;
    const result = {};
    if (!has(cue, 'at')) ctx.add(`${path}.at`, 'missing: where the cue happens, e.g. { "bar": 5, "beat": 3 }');
    else result.at = checkPosition(ctx, own(cue, 'at'), `${path}.at`, env);
    if (has(cue, 'label')) {
      checkString(ctx, own(cue, 'label'), `${path}.label`, { max: SCORE_LIMITS.labelChars, what: 'the label' });
      result.label = own(cue, 'label');
    }
    const kinds = CUE_KINDS.filter((k) => has(cue, k));
    if (kinds.length === 0) ctx.add(path, `a cue needs one of ${list(CUE_KINDS)}`);
    else if (kinds.length > 1) ctx.add(path, `a cue carries exactly one of ${list(CUE_KINDS)}, this one has ${kinds.join(' and ')}; split it into separate cues at the same position`);
    if (has(cue, 'view')) result.view = checkView(ctx, own(cue, 'view'), `${path}.view`, env, false);
    if (has(cue, 'audio')) result.audio = checkAudio(ctx, own(cue, 'audio'), `${path}.audio`, env);
    if (has(cue, 'osc')) result.osc = checkOsc(ctx, own(cue, 'osc'), `${path}.osc`, env);
    out.push({ cue: result, index: i });
  });
  // Stable by (bar, beat), then file order. Only used when every position is valid.
  out.sort((a, b) => (a.cue.at && b.cue.at ? compare(a.cue.at, b.cue.at) : 0) || a.index - b.index);
  return out.map((entry) => entry.cue);
}
