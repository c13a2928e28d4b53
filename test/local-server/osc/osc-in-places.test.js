// How OSC-in reads a place (docs/reference/osc.md#address-space): a string is a section's mark or a
// printed bar ("p17", "p17.2" for its 2nd time through), an integer a running bar; a mark the
// score has wins over a printed bar written the same way.
import { startArgs, loopArgs } from '../../../local-server/src/osc/osc-in.js';

const marks =
  (...known) =>
  (mark) =>
    known.includes(mark);

test('a printed bar with its pass, beat and count-in', () => {
  expect(startArgs(['p17'])).toEqual({ from: { printedBar: 17, beat: 1 }, countInBars: undefined });
  expect(startArgs(['P17.2', 3, 2])).toEqual({ from: { printedBar: 17, pass: 2, beat: 3 }, countInBars: 2 });
  expect(loopArgs(['p5', 'p6.2', 0, 1])).toEqual({ from: { printedBar: 5 }, to: { printedBar: 6, pass: 2 }, passes: null, countInBars: 1 });
});

test('marks and running bars read as before; a section called "p1" wins over printed bar 1', () => {
  expect(startArgs(['C', 1])).toEqual({ from: { section: 'C' }, countInBars: 1 });
  expect(startArgs([9, 2, 1])).toEqual({ from: { bar: 9, beat: 2 }, countInBars: 1 });
  expect(startArgs(['p1', 2], marks('p1'))).toEqual({ from: { section: 'p1' }, countInBars: 2 });
  expect(loopArgs(['A', 3, 2])).toEqual({ from: { section: 'A' }, to: { bar: 3 }, passes: 2, countInBars: undefined });
});

test('not a printed bar: read as a mark (the score then says it has no such section); no place at all is an error', () => {
  for (const text of ['p0', 'p1.0', 'p', 'p1.2.3', 'px']) expect(startArgs([text]).from).toEqual({ section: text });
  expect(() => startArgs([1.5])).toThrow(/printed bar \("p17", "p17.2"\)/);
  expect(() => startArgs(['p3', 1, 1, 1])).toThrow(/too many arguments/);
});
