// Prompts in a score (docs/reference/score-format.md#prompts-and-branches): every rule reported as
// `path: sentence`, and a valid prompt normalized for the engine.
import { expect, test } from '@jest/globals';
import { formatProblems, validateScore } from '#core/score/validate.js';
import { planPrompts } from '#core/votes/prompt-plan.js';
import { createTimeline } from '#core/score/timeline.js';

const base = (prompts) => ({
  format: 'tutti-score/1',
  id: 'p',
  title: 'P',
  bars: 16,
  meter: [{ bar: 1, beats: 4, unit: 4 }],
  tempo: [{ at: { bar: 1 }, bpm: 120 }],
  sections: [
    { at: { bar: 1 }, mark: 'A' },
    { at: { bar: 9 }, mark: 'B' },
  ],
  prompts,
});
const prompt = (extra = {}) => ({
  id: 'next',
  at: { bar: 4 },
  beats: 8,
  question: 'Where?',
  options: [
    { id: 'a', label: 'A', section: 'A' },
    { id: 'b', label: 'B', section: 'B' },
  ],
  ...extra,
});
const lines = (prompts) => formatProblems(validateScore(base(prompts)).problems).split('\n');

test('a valid prompt is kept, beat 1 filled in, and planned in beats with its branch targets', () => {
  const result = validateScore(base([prompt()]));
  expect(result.problems).toEqual([]);
  expect(result.score.prompts).toEqual([{ ...prompt(), at: { bar: 4, beat: 1 } }]);
  const plan = planPrompts(result.score, createTimeline(result.score));
  expect(plan).toEqual([
    {
      id: 'next',
      question: 'Where?',
      options: [
        { id: 'a', label: 'A' },
        { id: 'b', label: 'B' },
      ],
      open: 12,
      close: 20,
      targets: [0, 32],
      targetEnds: [32, 64],
    },
  ]);
  expect(validateScore({ ...base(undefined) }).score.prompts).toEqual([]);
});

test('every mistake is named with its path', () => {
  expect(lines([prompt({ id: 'bad id' })])).toEqual([
    'prompts[0].id: "bad id" is not a valid prompt id; use 1 to 32 of A-Z a-z 0-9 - _, starting with a letter or digit',
  ]);
  expect(lines([prompt({ beats: 0 })])).toEqual([
    'prompts[0].beats: expected the number of beats the prompt stays open, a whole number from 1 to 1024, got 0',
  ]);
  expect(lines([prompt({ at: { bar: 16, beat: 2 } })])).toEqual([
    'prompts[0].beats: open for 8 beats from bar 16, beat 2 runs 5 beat(s) past the end of the piece; close it before the last beat ends',
  ]);
  expect(lines([prompt({ question: '  ' })])).toEqual(['prompts[0].question: the question is empty; write at least 1 character']);
  expect(lines([prompt({ options: [{ id: 'a', label: 'A' }] })])).toEqual([
    'prompts[0].options: a prompt needs at least 2 options, this one has 1',
  ]);
  expect(lines([prompt({ options: Array.from({ length: 7 }, (_, i) => ({ id: `o${i}`, label: 'x' })) })])).toEqual([
    'prompts[0].options: 7 entries is more than the limit of 6',
  ]);
  expect(
    lines([
      prompt({
        options: [
          { id: 'a', label: 'A' },
          { id: 'a', label: 'B', section: 'Z' },
        ],
      }),
    ]),
  ).toEqual([
    'prompts[0].options[1].id: the option id "a" is used twice in this prompt',
    'prompts[0].options[1].section: there is no section with mark "Z" (known: A, B)',
  ]);
  expect(
    lines([
      prompt({
        options: [
          { id: 'a', lable: 'A' },
          { id: 'b', label: 'B' },
        ],
      }),
    ]),
  ).toEqual([
    "prompts[0].options[0]: unknown key 'lable' (did you mean 'label'?)",
    'prompts[0].options[0].label: missing: the button text (1 to 60 characters)',
  ]);
  expect(lines([prompt(), prompt({ at: { bar: 5 } })])).toEqual([
    'prompts[1].id: the id "next" is already used by prompts[0]',
    'prompts[1].at: opens at bar 5, beat 1 while prompts[0] ("next") is still open (8 beats from bar 4, beat 1); one prompt is open at a time',
  ]);
  expect(lines('x')).toEqual([
    'prompts: expected a list [ ... ] of prompts such as { "id": "next", "at": { "bar": 9 }, "beats": 8, "question": "Where next?", "options": [ … ] }, got "x" (text)',
  ]);
});

test('a branch needs a mark only one section carries', () => {
  const score = base([prompt()]);
  score.sections.push({ at: { bar: 12 }, mark: 'B' });
  expect(formatProblems(validateScore(score).problems).split('\n')).toEqual([
    'prompts[0].options[1].section: 2 sections carry the mark "B"; a branch needs a mark only one section has',
  ]);
});
