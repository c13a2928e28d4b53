// How score problems are worded and printed. Kept apart from the rules in validate.js so the
// CLI, the console and the control API all print problems the same way.

/**
 * @typedef {object} ScoreProblem
 * @property {string} path    where the problem is, e.g. `cues[3].at.bar`, or `(root)` / `(file)`
 * @property {string} message a sentence a composer can act on, e.g. `bar 212 is past the last bar (180)`
 */

const MAX_SHOWN_CHARS = 40;

/**
 * Print problems one per line as `path: message` (no trailing newline; `''` for no problems).
 * @param {ReadonlyArray<ScoreProblem>} problems
 * @returns {string}
 */
export function formatProblems(problems) {
  if (!Array.isArray(problems)) return '';
  return problems.map((p) => `${p?.path || '(root)'}: ${p?.message ?? ''}`).join('\n');
}

/**
 * A short, human description of any value for use in a message: `"48" (text; write numbers
 * without quotes)`, `4.5`, `null`, `a list of 3 items`, `an object`. Never throws.
 * @param {unknown} value
 * @returns {string}
 */
export function describeValue(value) {
  switch (typeof value) {
    case 'undefined':
      return 'nothing';
    case 'string': {
      const shown = quote(value);
      return /^\s*[-+]?\d+(\.\d+)?\s*$/.test(value) ? `${shown} (text; write numbers without quotes)` : `${shown} (text)`;
    }
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return value.length === 1 ? 'a list of 1 item' : `a list of ${value.length} items`;
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/**
 * A string shown in double quotes, shortened to a readable length.
 * @param {string} text
 * @returns {string}
 */
export function quote(text) {
  const short = text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}…` : text;
  return JSON.stringify(short);
}

/**
 * The closest candidate to a mistyped key (edit distance ≤ 2, ignoring case), or undefined.
 * @param {string} key
 * @param {ReadonlyArray<string>} candidates
 * @returns {string | undefined}
 */
export function didYouMean(key, candidates) {
  // Long keys cannot be within distance 2 of our short names; skipping them keeps this cheap.
  if (key.length > 32) return undefined;
  let best;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Levenshtein distance, with adjacent transpositions counting as one edit ("veiw" → "view").
 * Returns `limit` as soon as the distance cannot be below it.
 * @param {string} a
 * @param {string} b
 * @param {number} limit
 * @returns {number}
 */
function editDistance(a, b, limit) {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let before = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      current[j] = d;
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin >= limit) return limit;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length], limit);
}
