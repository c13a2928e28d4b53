// The score editor's model without a browser: undo/redo (one step per field while typing), the
// pure edits on the score document, the bar map drawn from the score with printed bar numbers,
// and the editor's document checked by the very validator `tutti validate` runs.

import { readFileSync } from 'node:fs';
import { createHistory, MERGE_MS } from '../../web/console/editor/history.js';
import { addCue, addItem, NEW_ITEM, moveItem, copyItem, deleteItem, setField, addAsset } from '../../web/console/editor/edits.js';
import { createPieceMap } from '../../web/console/editor/piece-map.js';
import { cueLabel, itemsOf, lanesOf, problemsAt } from '../../web/console/editor/lanes.js';
import { fieldsFor } from '../../web/console/editor/cue-fields.js';
import { validateScore, formatProblems } from '#core/score/validate.js';

const demo = () => JSON.parse(readFileSync(new URL('../../scores/demo.score.json', import.meta.url), 'utf8'));

test('undo and redo walk the steps; a new edit drops the redo steps', () => {
  const h = createHistory({ n: 0 });
  h.push({ n: 1 }, 'one');
  h.push({ n: 2 }, 'two');
  expect(h.next()).toEqual({ undo: 'two', redo: undefined });
  expect(h.undo()).toBe(true);
  expect(h.current()).toEqual({ n: 1 });
  expect(h.redo()).toBe(true);
  expect(h.current()).toEqual({ n: 2 });
  h.undo();
  h.undo();
  expect(h.current()).toEqual({ n: 0 });
  expect(h.undo()).toBe(false);
  h.push({ n: 9 }, 'nine');
  expect(h.redo()).toBe(false);
  expect(h.current()).toEqual({ n: 9 });
});

test('typing in one field is one undo step; another field or a pause starts a new one', () => {
  let t = 0;
  const h = createHistory('', { now: () => t });
  for (const text of ['H', 'He', 'Hel', 'Hello']) {
    t += 100;
    h.push(text, 'type', 'cues[0].view.text');
  }
  t += 100;
  h.push('Hello!', 'other field', 'cues[0].view.color');
  t += MERGE_MS + 1;
  h.push('Hello!!', 'again', 'cues[0].view.color');
  h.undo();
  expect(h.current()).toBe('Hello!');
  h.undo();
  expect(h.current()).toBe('Hello');
  h.undo();
  expect(h.current()).toBe('');
});

test('the history keeps a bounded number of steps', () => {
  const h = createHistory(0, { steps: 3 });
  for (let n = 1; n <= 10; n += 1) h.push(n, `step ${n}`);
  let undone = 0;
  while (h.undo()) undone += 1;
  expect(undone).toBe(3);
  expect(h.current()).toBe(7);
});

test('edits return a new document and leave the old one as it was', () => {
  const doc = demo();
  const before = JSON.stringify(doc);
  const { doc: added, ref } = addCue(doc, { view: { text: 'Hi' } }, { bar: 9, beat: 3 });
  expect(added.cues.at(-1)).toEqual({ at: { bar: 9, beat: 3 }, view: { text: 'Hi' } });
  const moved = moveItem(added, ref, { bar: 10, beat: 1 });
  expect(moved.cues[ref.index].at).toEqual({ bar: 10 });
  const typed = setField(moved, ref, ['view', 'color'], '#123');
  expect(typed.cues[ref.index].view).toEqual({ text: 'Hi', color: '#123' });
  expect(setField(typed, ref, ['view', 'color'], undefined).cues[ref.index].view).toEqual({ text: 'Hi' });
  const { doc: copied, ref: twin } = copyItem(typed, { list: 'prompts', index: 0 }, { bar: 40 });
  expect(copied.prompts[twin.index]).toMatchObject({ id: 'lights-2', at: { bar: 40 } });
  expect(deleteItem(copied, ref).cues).toHaveLength(doc.cues.length);
  expect(addAsset(doc, { id: 'pic', kind: 'image', src: 'pic.png' }).assets.map((a) => a.id)).toEqual(['bell', 'pic']);
  expect(JSON.stringify(doc)).toBe(before);
});

test('the bar map: performance bars with printed numbers, sections, meter and tempo', () => {
  const score = {
    ...demo(),
    bars: 10,
    sections: [
      { at: { bar: 1 }, mark: 'A' },
      { at: { bar: 9 }, mark: 'B', name: 'Coda' },
    ],
    printedBars: [
      { bar: 1, number: 1 },
      { bar: 5, number: 1, pass: 2 },
      { bar: 9, number: 5 },
    ],
    cues: [],
    prompts: [],
  };
  const checked = validateScore(score);
  expect(formatProblems(checked.problems)).toBe('');
  const map = createPieceMap(checked.score);
  expect(map.bars).toHaveLength(10);
  expect(map.bars[5]).toMatchObject({ bar: 6, start: 20, beats: 4, printed: '2 (2nd time)' });
  expect(map.bars[8]).toMatchObject({ printed: '5', section: 'B Coda' });
  expect(map.bars[0]).toMatchObject({ meter: '4/4', tempo: '♩ = 96', section: 'A' });
  expect(map.barOfPrinted(2, 2)).toBe(6);
  expect(map.barOfPrinted(7)).toBeUndefined();
  expect(map.positionOf(map.indexOf({ bar: 3, beat: 2 }) + 7)).toEqual({ bar: 5, beat: 1 });
  expect(map.positionOf(-4)).toEqual({ bar: 1, beat: 1 });
});

test('items land in their lanes; a problem belongs to the item its path names', () => {
  const doc = demo();
  doc.parts = [{ id: 'vln', name: 'Violin', osc: '/vln' }];
  doc.cues.push({ at: { bar: 2 }, osc: { part: 'vln', address: '/x' } });
  doc.cues.push({ at: { bar: 3 }, view: { color: 'blue' } });
  expect(lanesOf(doc).map((l) => l.id)).toEqual(['view', 'sound', 'osc:vln', 'osc:', 'prompts', 'reactions']);
  const items = itemsOf(doc);
  expect(items.find((i) => i.index === doc.cues.length - 2 && i.list === 'cues').lane).toBe('osc:vln');
  expect(items.filter((i) => i.lane === 'prompts')).toHaveLength(1);
  const { problems } = validateScore(doc);
  const ref = { list: 'cues', index: doc.cues.length - 1 };
  expect(formatProblems(problemsAt(problems, ref))).toMatch(/^cues\[\d+\]\.view\.color: expected a colour written #rgb or #rrggbb/);
  expect(problemsAt(problems, { list: 'cues', index: 1 })).toEqual([]);
});

test('a new prompt and a reaction window validate; a copied window keeps its length', () => {
  const doc = demo();
  const map = createPieceMap(validateScore(doc).score);
  const shiftBy = (beats) => (p) => map.positionOf(map.indexOf(p) + beats);
  let next = addItem(doc, 'prompts', NEW_ITEM.prompt(['lights']), { bar: 40 }).doc;
  next = addItem(next, 'reactions', { until: { bar: 6 }, ...NEW_ITEM.reaction() }, { bar: 5 }).doc;
  expect(formatProblems(validateScore(next).problems)).toBe('');
  const ref = { list: 'reactions', index: 0 };
  const { doc: copied } = copyItem(next, ref, { bar: 8, beat: 3 }, shiftBy(map.indexOf({ bar: 8, beat: 3 }) - map.indexOf({ bar: 5 })));
  expect(copied.reactions[1]).toEqual({ at: { bar: 8, beat: 3 }, until: { bar: 9, beat: 3 }, label: 'Tap' });
  expect(formatProblems(validateScore(copied).problems)).toBe('');
  expect(moveItem(copied, ref, { bar: 2 }, shiftBy(-12)).reactions[0]).toMatchObject({ at: { bar: 2 }, until: { bar: 3 } });
});

test("a view cue's form offers the engraved score for the phones only when the score has notation", () => {
  const doc = { ...demo(), parts: [{ id: 'violin' }, { id: 'piano' }] };
  const cue = { at: { bar: 2 }, view: { score: 'all' } };
  const scoreField = (d) => fieldsFor('cues', cue, d).find((f) => f.keys.join('.') === 'view.score');
  expect(scoreField(doc)).toBeUndefined();
  expect(scoreField({ ...doc, notation: 'piece.musicxml' })).toMatchObject({ type: 'optional', options: ['all', 'violin', 'piano'] });
  expect(cueLabel(cue)).toBe('Score all');
});
