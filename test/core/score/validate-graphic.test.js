// Graphic scores (core/score/validate-graphic.js, docs/reference/graphic-scores.md#the-graphic-field):
// a strip of image assets per part with marks, validated like every other field (path + sentence).
import { validateScore } from '#core/score/validate.js';

const base = () => ({
  format: 'tutti-score/1',
  id: 'g',
  title: 'Drawn',
  bars: 8,
  meter: [
    { bar: 1, beats: 4, unit: 4 },
    { bar: 5, beats: 3, unit: 4 },
  ],
  tempo: [{ at: { bar: 1 }, bpm: 60 }],
  parts: [{ id: 'vln', osc: '/vln' }],
  assets: [
    { id: 'a', kind: 'image', src: 'media/a.svg' },
    { id: 'b', kind: 'image', src: 'media/b.svg' },
    { id: 'snd', kind: 'audio', src: 'media/s.wav' },
  ],
});

const strip = (over = {}) => ({
  part: 'all',
  images: [
    { asset: 'a', width: 1000, height: 400 },
    { asset: 'b', width: 1000, height: 400 },
  ],
  marks: [
    { at: { bar: 1 }, x: 50 },
    { at: { bar: 5 }, x: 1100 },
  ],
  ...over,
});

const problems = (graphic) => {
  const result = validateScore({ ...base(), graphic });
  return result.problems.map((p) => `${p.path}: ${p.message}`);
};

test('a valid strip is kept, normalized, with its end defaulting to the strip width', () => {
  const result = validateScore({ ...base(), graphic: [strip(), strip({ part: 'vln', end: 1900 })] });
  expect(result.problems).toEqual([]);
  expect(result.score?.graphic).toEqual([
    {
      part: 'all',
      images: strip().images,
      marks: [
        { at: { bar: 1, beat: 1 }, x: 50 },
        { at: { bar: 5, beat: 1 }, x: 1100 },
      ],
      end: 2000,
    },
    {
      part: 'vln',
      images: strip().images,
      marks: [
        { at: { bar: 1, beat: 1 }, x: 50 },
        { at: { bar: 5, beat: 1 }, x: 1100 },
      ],
      end: 1900,
    },
  ]);
});

test('a score without graphic keeps no graphic key (older scores stay byte-identical when normalized)', () => {
  expect(validateScore(base()).score).not.toHaveProperty('graphic');
});

test('references: unknown part, audio asset as image, a part twice', () => {
  expect(problems([strip({ part: 'vl' })])).toEqual(['graphic[0].part: there is no part with id "vl" (did you mean "vln"?)']);
  expect(problems([strip({ images: [{ asset: 'snd', width: 10, height: 10 }], marks: [{ at: { bar: 1 }, x: 0 }] })])).toEqual([
    'graphic[0].images[0].asset: "snd" is an audio asset (assets[2]), not an image asset',
  ]);
  expect(problems([strip(), strip()])).toEqual([
    'graphic[1].part: "all" already has a graphic score (graphic[0]); give each part one strip',
  ]);
});

test('image sizes: missing, not whole pixels, heights that differ', () => {
  expect(problems([strip({ images: [{ asset: 'a', width: 1000 }] })])).toContain(
    "graphic[0].images[0].height: missing: the image's height in pixels, as the file has it",
  );
  expect(problems([strip({ images: [{ asset: 'a', width: 10.5, height: 400 }], marks: [{ at: { bar: 1 }, x: 0 }] })])).toEqual([
    "graphic[0].images[0].width: expected the image's width in pixels, a whole number from 1 to 1000000, got 10.5",
  ]);
  expect(problems([strip({ images: [strip().images[0], { asset: 'b', width: 1000, height: 300 }] })])).toEqual([
    "graphic[0].images[1].height: 300 differs from the first image's height (400); scale the images of one strip to one height",
  ]);
});

test('marks: a start at bar 1 beat 1, positions and x increasing, on the strip, beats in the meter', () => {
  expect(problems([strip({ marks: [{ at: { bar: 2 }, x: 0 }] })])).toEqual([
    'graphic[0].marks[0].at: the first mark must be at bar 1, beat 1 (it is at bar 2, beat 1): the strip needs a start',
  ]);
  expect(
    problems([
      strip({
        marks: [
          { at: { bar: 1 }, x: 0 },
          { at: { bar: 3 }, x: 500 },
          { at: { bar: 2 }, x: 700 },
        ],
      }),
    ]),
  ).toEqual(['graphic[0].marks[2].at: bar 2, beat 1 is not after the mark before it (bar 3, beat 1); list marks in performance order']);
  expect(
    problems([
      strip({
        marks: [
          { at: { bar: 1 }, x: 300 },
          { at: { bar: 3 }, x: 200 },
        ],
      }),
    ]),
  ).toEqual(['graphic[0].marks[1].x: 200 is not right of the mark before it (x 300); the strip scrolls one way']);
  expect(
    problems([
      strip({
        marks: [
          { at: { bar: 1 }, x: 0 },
          { at: { bar: 3 }, x: 2500 },
        ],
      }),
    ]),
  ).toEqual(["graphic[0].marks[1].x: 2500 is past the strip's right edge (2000, its images' widths added up)"]);
  expect(
    problems([
      strip({
        marks: [
          { at: { bar: 1 }, x: 0 },
          { at: { bar: 6, beat: 4 }, x: 100 },
        ],
      }),
    ]),
  ).toEqual(['graphic[0].marks[1].at.beat: beat 4 does not exist in bar 6, which has 3 beats (3/4)']);
  expect(problems([strip({ marks: [] })])).toEqual([
    'graphic[0].marks: the list is empty: where positions sit on the strip, such as { "at": { "bar": 1 }, "x": 0 }',
  ]);
});

test('end: right of the last mark and on the strip', () => {
  expect(problems([strip({ end: 900 })])).toEqual([
    'graphic[0].end: 900 must be right of the last mark (x 1100): the piece ends after its last mark',
  ]);
  expect(problems([strip({ end: 2001 })])).toEqual([
    "graphic[0].end: 2001 is past the strip's right edge (2000, its images' widths added up)",
  ]);
});

test('shape: not a list, an entry not an object, unknown keys', () => {
  expect(problems({})).toEqual([expect.stringMatching(/^graphic: expected a list \[ \.\.\. \] of graphic scores such as/)]);
  expect(problems(['x'])).toEqual([expect.stringMatching(/^graphic\[0\]: expected a graphic score such as .* got "x"/)]);
  expect(problems([strip({ speed: 2 })])).toEqual(["graphic[0]: unknown key 'speed' (allowed here: part, images, marks, end)"]);
});
