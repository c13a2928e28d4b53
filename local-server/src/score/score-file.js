// Loads a score file from disk: read → parse JSON (with line and column on a syntax error) →
// validate (core/score/validate.js) → check that every asset file exists next to the score.
// Every failure becomes a problem in the result; nothing here throws.

import { stat, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { resolveMediaFile } from './media-file.js';
import { SCORE_LIMITS, sortProblems, validateScore } from '#core/score/validate.js';

/** Score files larger than this are refused before reading (a score is text; media are separate). */
export const MAX_SCORE_FILE_BYTES = 16 * 1024 * 1024;

/**
 * @typedef {import('#core/score/format-problems.js').ScoreProblem} ScoreProblem
 * @typedef {{ ok: boolean, problems: ScoreProblem[], score?: import('#core/score/validate.js').Score,
 *   dir: string, file: string }} LoadedScore
 */

/**
 * Read, parse and validate a score file and check its assets on disk. When ok, `score` is the
 * normalized score (see validateScore) with every asset's `bytes` set to the file's size.
 * `dir` is the absolute folder of the score file (asset `src` paths are relative to it) and
 * `file` the absolute path of the score. Never throws.
 * @param {string} path
 * @returns {Promise<LoadedScore>}
 */
export async function loadScoreFile(path) {
  if (typeof path !== 'string' || path === '') {
    return { ok: false, problems: [{ path: '(file)', message: 'no score file given' }], dir: '', file: '' };
  }
  const file = resolve(path);
  const dir = dirname(file);
  const fail = (message) => ({ ok: false, problems: [{ path: '(file)', message }], dir, file });
  try {
    const text = await readText(file);
    if (typeof text !== 'string') return fail(text.message);
    let value;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return fail(jsonErrorMessage(text, error));
    }
    return { ...(await checkScoreIn(value, dir)), dir, file };
  } catch (error) {
    return fail(`could not load ${file}: ${error?.message ?? String(error)}`);
  }
}

/**
 * The rules of `tutti validate` for a parsed score whose file is in `dir`: the validator's, then
 * every asset file on disk (the score editor checks a score before writing it with this).
 * When ok, `score` is normalized with every asset's `bytes` set. Never throws.
 * @param {unknown} value
 * @param {string} dir
 * @returns {Promise<{ ok: boolean, problems: ScoreProblem[], score?: import('#core/score/validate.js').Score }>}
 */
export async function checkScoreIn(value, dir) {
  const result = validateScore(value);
  const { found, sizes } = await checkAssetFiles(value, dir, result.problems);
  found.push(...(await checkNotationFile(value, dir, result.problems)));
  if (!result.ok || found.length > 0) {
    // Merge in file order, unless the validator already capped its list (its last line says so).
    const capped = result.problems.length > SCORE_LIMITS.problems;
    const problems = capped ? [...result.problems, ...found] : sortProblems([...result.problems, ...found]);
    return { ok: false, problems };
  }
  for (const asset of result.score.assets) asset.bytes ??= sizes.get(asset.id);
  return { ok: true, problems: [], score: result.score };
}

/** The file's text, or `{ message }` saying why it cannot be read. */
async function readText(file) {
  let info;
  try {
    info = await stat(file);
  } catch (error) {
    return { message: error?.code === 'ENOENT' ? `${file} does not exist` : `cannot read ${file}: ${error?.message}` };
  }
  if (info.isDirectory()) return { message: `${file} is a folder; give the path of a .score.json file` };
  // Devices and pipes (/dev/zero, a FIFO) report size 0 and never end: read only regular files.
  if (!info.isFile()) return { message: `${file} is not a regular file; give the path of a .score.json file` };
  if (info.size > MAX_SCORE_FILE_BYTES) {
    return {
      message: `${file} is ${(info.size / 1048576).toFixed(1)} MB; a score file may be at most ${MAX_SCORE_FILE_BYTES / 1048576} MB (media go in separate files)`,
    };
  }
  try {
    const text = await readFile(file, 'utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // editors on Windows may add a BOM
  } catch (error) {
    return { message: `cannot read ${file}: ${error?.message}` };
  }
}

/**
 * Check each asset whose `src` the validator accepted: the file (links followed) must be a regular file inside `dir` and, when
 * the score gives `bytes`, have that size. Returns the problems and the sizes found, by asset id.
 * @returns {Promise<{ found: ScoreProblem[], sizes: Map<string, number> }>}
 */
async function checkAssetFiles(value, dir, validation) {
  /** @type {Map<string, number>} */
  const sizes = new Map();
  /** @type {Array<ScoreProblem & { index: number }>} */
  const found = [];
  const assets = value && typeof value === 'object' && Array.isArray(value.assets) ? value.assets : [];
  // Past the limit the validator has already said so; do not stat thousands of paths.
  if (assets.length > SCORE_LIMITS.assets) return { found, sizes };
  const rejected = new Set(validation.map((p) => p.path));
  await Promise.all(
    assets.map(async (asset, i) => {
      const path = `assets[${i}]`;
      const src = asset?.src;
      if (typeof src !== 'string' || rejected.has(`${path}.src`) || rejected.has(path)) return;
      const resolved = await resolveMediaFile(dir, src);
      if (!resolved.ok) {
        found.push({ index: i, path: `${path}.src`, message: resolved.message });
        return;
      }
      const info = resolved;
      if (Number.isInteger(asset.bytes) && asset.bytes !== info.size) {
        found.push({
          index: i,
          path: `${path}.bytes`,
          message: `the score says ${asset.bytes} bytes but ${src} has ${info.size}; update "bytes" or leave it out`,
        });
      }
      if (typeof asset.id === 'string') sizes.set(asset.id, info.size);
    }),
  );
  // The checks finish in any order; report in file order.
  found.sort((a, b) => a.index - b.index);
  return { found: found.map(({ path, message }) => ({ path, message })), sizes };
}

/**
 * The score's `notation` file (docs/reference/notation.md#the-notation-field), when the validator
 * accepted its path: a regular file inside the score's folder, links followed, as assets are.
 * @returns {Promise<ScoreProblem[]>}
 */
async function checkNotationFile(value, dir, validation) {
  const src = value && typeof value === 'object' ? value.notation : undefined;
  if (typeof src !== 'string' || validation.some((p) => p.path === 'notation')) return [];
  const resolved = await resolveMediaFile(dir, src);
  return resolved.ok ? [] : [{ path: 'notation', message: /** @type {string} */ (resolved.message) }];
}

/**
 * "invalid JSON at line L, column C: <what>" for a JSON.parse error. V8 usually gives the
 * position; when it does not ("Unexpected token ..."), a small scanner finds it.
 */
function jsonErrorMessage(text, error) {
  if (text.trim() === '') return 'the file is empty; a score is a JSON object { "format": "tutti-score/1", ... }';
  const raw = String(error?.message ?? error);
  let line;
  let column;
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(raw);
  const position = /at position (\d+)/.exec(raw);
  if (lineColumn) {
    line = Number(lineColumn[1]);
    column = Number(lineColumn[2]);
  } else {
    const offset = position ? Number(position[1]) : findJsonError(text);
    if (offset >= 0) ({ line, column } = lineAndColumn(text, offset));
  }
  const what = raw
    .replace(/,? ?".*" is not valid JSON$/s, '')
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/ at position \d+.*$/s, '');
  const where = line ? ` at line ${line}, column ${column}` : '';
  return `invalid JSON${where}: ${what}`;
}

function lineAndColumn(text, offset) {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Offset of the first JSON syntax error in `text`, or -1 if there is none. A plain recursive
 * descent over the JSON grammar (RFC 8259), depth-limited so it cannot exhaust the stack.
 */
export function findJsonError(text) {
  let i = 0;
  const fail = () => {
    throw new SyntaxAt(i);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 0x20) fail();
      if (c === 92) {
        const e = text[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else {
          i++;
          fail();
        }
      } else i++;
    }
    fail();
  };
  const value = (depth) => {
    if (depth > 4096) fail();
    space();
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      space();
      if (text[i] === close) {
        i++;
        return;
      }
      for (;;) {
        if (c === '{') {
          space();
          if (text[i] !== '"') fail();
          string();
          space();
          if (text[i] !== ':') fail();
          i++;
        }
        value(depth + 1);
        space();
        if (text[i] === ',') i++;
        else if (text[i] === close) {
          i++;
          return;
        } else fail();
      }
    }
    if (c === '"') return string();
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    number.lastIndex = i;
    const match = number.exec(text);
    if (!match) fail();
    i += match[0].length;
  };
  try {
    value(0);
    space();
    if (i < text.length) fail();
    return -1;
  } catch (error) {
    if (error instanceof SyntaxAt) return error.offset;
    return -1;
  }
}

class SyntaxAt {
  /** @param {number} offset */
  constructor(offset) {
    this.offset = offset;
  }
}
