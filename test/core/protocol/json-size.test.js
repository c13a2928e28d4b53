// The size-only replay of merge patches must agree byte for byte with serializing the patched
// object, or the snapshot-size rule (core/score/validate-state-size.js) would let a too-big
// score through or refuse a fine one.
import fc from 'fast-check';
import { createSizedJson, utf8Bytes } from '#core/protocol/json-size.js';
import { applyMergePatch, withoutNulls } from '#core/protocol/merge-patch.js';

const exact = (value) => Buffer.byteLength(JSON.stringify(withoutNulls(value)));

test('utf8Bytes matches Buffer.byteLength for JSON text (ASCII, accents, CJK, emoji, escapes)', () => {
  for (const text of ['', 'abc', 'é', '日本語', '🎻🎺', 'a\u0000b"\\', '\ud800 lone', 'x'.repeat(1000)]) {
    const json = JSON.stringify(text);
    expect([text, utf8Bytes(json)]).toEqual([text, Buffer.byteLength(json)]);
  }
});

test('after any sequence of merge patches the tracked size is the serialized size', () => {
  const key = fc.constantFrom('a', 'b', 'c', 'tiles', 'é', '🎻', 'k"q', '');
  const leaf = fc.oneof(
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 8 }),
    fc.string({ unit: 'grapheme', maxLength: 4 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.oneof(fc.integer(), fc.constant(null), fc.dictionary(key, fc.oneof(fc.integer(), fc.constant(null)), { maxKeys: 2 })), {
      maxLength: 3,
    }),
  );
  const { patch } = fc.letrec((tie) => ({
    patch: fc.dictionary(key, fc.oneof({ depthSize: 'small' }, leaf, tie('patch')), { maxKeys: 4 }),
  }));
  fc.assert(
    fc.property(fc.array(patch, { minLength: 1, maxLength: 8 }), (patches) => {
      const sized = createSizedJson();
      let value = {};
      for (const p of patches) {
        sized.apply(p);
        value = applyMergePatch(value, p);
        if (sized.bytes() !== exact(value)) return false;
      }
      return true;
    }),
    { numRuns: 2000, seed: 42 },
  );
});
