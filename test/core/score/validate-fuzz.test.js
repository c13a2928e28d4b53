// Property tests: validateScore never throws and always answers in the documented shape, for
// arbitrary values and for random mutations of real scores.
import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { validateScore } from '#core/score/validate.js';

const samples = ['demo', 'tidal-lines'].map((name) =>
  JSON.parse(readFileSync(new URL(`../../../scores/${name}.score.json`, import.meta.url), 'utf8')),
);

// Plain checks rather than expect(): this runs for every problem of every one of thousands of runs.
function expectShape(result) {
  const fail = (why) => {
    throw new Error(`${why}: ${JSON.stringify(result).slice(0, 500)}`);
  };
  if (typeof result !== 'object' || result === null || typeof result.ok !== 'boolean') fail('no boolean ok');
  if (!Array.isArray(result.problems)) fail('problems is not an array');
  for (const problem of result.problems) {
    if (typeof problem.path !== 'string' || problem.path === '') fail('a problem without a path');
    if (typeof problem.message !== 'string' || problem.message === '') fail('a problem without a message');
  }
  if (result.ok && (result.problems.length > 0 || typeof result.score !== 'object')) fail('ok with problems or without a score');
  if (!result.ok && (result.problems.length === 0 || 'score' in result)) fail('not ok without problems, or with a score');
}

/** Every path (list of keys/indexes) in a JSON tree, the root excluded. */
function pathsOf(value, prefix = [], out = []) {
  if (value && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const path = [...prefix, Array.isArray(value) ? Number(key) : key];
      out.push(path);
      pathsOf(value[key], path, out);
    }
  }
  return out;
}

function mutate(score, mutations) {
  const copy = structuredClone(score);
  for (const { pick, action, key, value } of mutations) {
    const paths = pathsOf(copy);
    if (paths.length === 0) break;
    const path = paths[pick % paths.length];
    let parent = copy;
    for (const step of path.slice(0, -1)) parent = parent[step];
    const last = path[path.length - 1];
    if (action === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (action === 'replace') {
      parent[last] = value;
    } else if (parent[last] && typeof parent[last] === 'object' && !Array.isArray(parent[last])) {
      // add a key (possibly a near-miss of a real one) next to the existing ones
      Object.defineProperty(parent[last], key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return copy;
}

const keyArb = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'tempi', 'veiw', 'beat', 'bar', 'to', 'until', 'data', 'gain', 'args', 'part'),
);

const mutationArb = fc.record({
  pick: fc.nat(),
  action: fc.constantFrom('delete', 'replace', 'add'),
  key: keyArb,
  value: fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.integer({ min: -5, max: 300 }),
    fc.constantFrom(0, 1, 4, 33, 401, -1, 1.5, '', '/x', 'bell', 'lines', 'vln', null, true, [], {}),
  ),
});

describe('validateScore fuzzing', () => {
  test('arbitrary values: never throws, always the documented shape', () => {
    fc.assert(
      fc.property(
        fc.anything({
          key: keyArb,
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withTypedArray: true,
          withSparseArray: true,
          withBoxedValues: true,
          withObjectString: true,
        }),
        (value) => {
          const result = validateScore(value);
          expectShape(result);
          if (result.ok) throw new Error('an arbitrary value passed as a score');
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('arbitrary JSON values: never throws, always the documented shape', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => expectShape(validateScore(value))),
      { numRuns: 3000 },
    );
  });

  test('score-shaped records of arbitrary JSON: never throws', () => {
    const field = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(
        fc.record(
          {
            format: fc.constant('tutti-score/1'),
            id: field,
            title: field,
            bars: fc.oneof(fc.integer(), field),
            meter: field,
            tempo: field,
            sections: field,
            parts: field,
            assets: field,
            view: field,
            cues: field,
          },
          { requiredKeys: ['format'] },
        ),
        (value) => expectShape(validateScore(value)),
      ),
      { numRuns: 3000 },
    );
  });

  test.each(samples.map((s) => [s.id, s]))('mutations of %s: never throws; a valid result re-validates to itself', (_, sample) => {
    let valid = 0;
    let invalid = 0;
    fc.assert(
      fc.property(fc.array(mutationArb, { minLength: 1, maxLength: 4 }), (mutations) => {
        const result = validateScore(mutate(sample, mutations));
        expectShape(result);
        if (result.ok) {
          valid++;
          // The normalized score is itself a valid score, and a fixed point of normalization.
          const again = validateScore(result.score);
          if (!again.ok) throw new Error(`normalized score invalid: ${JSON.stringify(again.problems)}`);
          if (JSON.stringify(again.score) !== JSON.stringify(result.score)) throw new Error('normalizing twice changed the score');
          const positions = result.score.cues.map((c) => c.at.bar * 100 + c.at.beat);
          if (positions.some((p, i) => i > 0 && p < positions[i - 1])) throw new Error('cues not sorted');
        } else {
          invalid++;
        }
      }),
      { numRuns: 2000 },
    );
    // Both outcomes must actually occur, or the property above tests less than it claims.
    expect(valid).toBeGreaterThan(50);
    expect(invalid).toBeGreaterThan(50);
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});
