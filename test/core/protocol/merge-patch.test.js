import fc from 'fast-check';
import { applyMergePatch, createMergePatch, jsonEqual, withoutNulls } from '#core/protocol/merge-patch.js';

// JSON objects without nulls (a merge patch cannot carry a null value: it means delete).
const state = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string(),
    fc.boolean(),
    fc.array(tie('value'), { maxLength: 4 }),
    tie('object'),
  ),
  object: fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 6 }),
})).object;

describe('RFC 7396 merge patch', () => {
  test('RFC 7396 appendix A examples', () => {
    expect(applyMergePatch({ a: 'b' }, { a: 'c' })).toEqual({ a: 'c' });
    expect(applyMergePatch({ a: 'b' }, { b: 'c' })).toEqual({ a: 'b', b: 'c' });
    expect(applyMergePatch({ a: 'b' }, { a: null })).toEqual({});
    expect(applyMergePatch({ a: 'b', b: 'c' }, { a: null })).toEqual({ b: 'c' });
    expect(applyMergePatch({ a: ['b'] }, { a: 'c' })).toEqual({ a: 'c' });
    expect(applyMergePatch({ a: 'c' }, { a: ['b'] })).toEqual({ a: ['b'] });
    expect(applyMergePatch({ a: { b: 'c' } }, { a: { b: 'd', c: null } })).toEqual({ a: { b: 'd' } });
    expect(applyMergePatch({ a: [{ b: 'c' }] }, { a: [1] })).toEqual({ a: [1] });
    expect(applyMergePatch(['a', 'b'], ['c', 'd'])).toEqual(['c', 'd']);
    expect(applyMergePatch({ a: 'b' }, ['c'])).toEqual(['c']);
    expect(applyMergePatch({ e: null }, { a: 1 })).toEqual({ e: null, a: 1 });
    expect(applyMergePatch([1, 2], { a: 'b', c: null })).toEqual({ a: 'b' });
    expect(applyMergePatch({}, { a: { bb: { ccc: null } } })).toEqual({ a: { bb: {} } });
  });

  test('apply(from, diff(from, to)) equals to, for any two states', () => {
    fc.assert(
      fc.property(state, state, (from, to) => {
        const patch = createMergePatch(from, to);
        const result = patch === undefined ? from : applyMergePatch(from, patch);
        expect(jsonEqual(result, to)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  test('the patch of equal states is undefined and does not mutate inputs', () => {
    fc.assert(
      fc.property(state, (s) => {
        const copy = structuredClone(s);
        expect(createMergePatch(s, copy)).toBeUndefined();
        applyMergePatch(s, { x: 1 });
        expect(s).toEqual(copy);
      }),
      { numRuns: 500 },
    );
  });

  test('a small change gives a small patch', () => {
    const tiles = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`t${i}`, { c: '#112233', s: 0 }]));
    const next = { ...tiles, t7: { c: '#ff0000', s: 1 } };
    expect(createMergePatch({ tiles }, { tiles: next })).toEqual({ tiles: { t7: { c: '#ff0000', s: 1 } } });
  });

  test('withoutNulls strips null members deeply', () => {
    expect(withoutNulls({ a: null, b: { c: null, d: 1 }, e: [null, { f: null }] })).toEqual({ b: { d: 1 }, e: [null, {}] });
  });
});
