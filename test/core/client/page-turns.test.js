// Half-page turns (core/client/page-turns.js): the half with the bar being played stays, the other
// slot shows the half of the next bar in performance order outside it, across a repeat back, a
// D.C. to an earlier page, a rehearsal loop and an announced jump.

import { pageHalves, upcomingBars, barsAfter, screenFor, pageScreen, cursorPoint, isBarMap } from '#core/client/page-turns.js';

/** Three pages of four systems, two bars a system: printed bars 1…24 (page 1: 1–8, page 2: 9–16…). */
const printedBox = (n) => {
  const page = Math.ceil(n / 8);
  const system = Math.floor(((n - 1) % 8) / 2);
  return { page, x: n % 2 ? 50 : 250, y: 40 + system * 100, w: 200, h: 60 };
};
/** Performance order: 1–8, repeat back to 5–8, on to 24, D.C. to 1–4 (Fine). */
const order = [1, 2, 3, 4, 5, 6, 7, 8, 5, 6, 7, 8, ...Array.from({ length: 16 }, (_, i) => 9 + i), 1, 2, 3, 4];
const map = { pages: 3, width: 500, height: 440, bars: order.map((printed, i) => ({ bar: i + 1, printed, ...printedBox(printed) })) };
const halves = pageHalves(map);
const name = (s) => s && `${s.upper.page}${s.upper.half[0]}/${s.lower ? `${s.lower.page}${s.lower.half[0]}` : '-'}`;
const play = (bar, previous = null) => screenFor(halves, bar, upcomingBars({ bar, bars: map.bars.length }), previous);

test('a page splits between its middle systems; each bar belongs to one half', () => {
  expect(halves.halfOfBar(1)).toEqual({ page: 1, half: 'top', y0: 0, y1: 220 });
  expect(halves.halfOfBar(5)).toEqual({ page: 1, half: 'bottom', y0: 220, y1: 440 });
  expect(halves.halfOfBar(13)).toMatchObject({ page: 2, half: 'top' });
  expect(halves.halfOfBar(99)).toBeNull();
});

test('reading on: the top of the next page replaces this top while the bottom is played', () => {
  expect(name(play(1))).toBe('1t/1b');
  // Bars 5–8 (bottom of page 1) are repeated: the next half outside is page 2's top only after them.
  expect(name(play(5))).toBe('2t/1b');
  // Bar 13 = printed 9 (page 2 top): the bottom of page 2 comes next.
  expect(name(play(13))).toBe('2t/2b');
});

test('a repeat back to the top of the page keeps that top on screen', () => {
  // Performance order 1,2,3,4,5,6 then back to 1 (printed): while on 5–6 (bottom), the top is next.
  const small = { ...map, bars: [1, 2, 3, 4, 5, 6, 1, 2, 9].map((printed, i) => ({ bar: i + 1, printed, ...printedBox(printed) })) };
  const h = pageHalves(small);
  const s = screenFor(h, 5, upcomingBars({ bar: 5, bars: 9 }), null);
  expect(name(s)).toBe('1t/1b');
  // After the repeat, on the top again, the page 2 top (printed 9) comes next: in the lower slot.
  expect(name(screenFor(h, 8, upcomingBars({ bar: 8, bars: 9 }), s))).toBe('1t/2t');
});

test('a D.C. from the last page brings page 1 on screen before the jump', () => {
  // Bar 28 = printed 24 (page 3 bottom); next come printed 1–4 (page 1 top).
  expect(name(play(28))).toBe('1t/3b');
  expect(name(play(26))).toBe('1t/3b');
});

test('a rehearsal loop brings its first bar back on screen; an announced jump is taken first', () => {
  const loop = { from: 13, to: 20 };
  // In bar 19 (printed 15, page 2 bottom) of a loop from bar 13 (page 2 top): that top stays.
  expect(upcomingBars({ bar: 19, bars: 32, loop, limit: 4 })).toEqual([20, 13, 14, 15]);
  expect(name(screenFor(halves, 19, upcomingBars({ bar: 19, bars: 32, loop }), null))).toBe('2t/2b');
  // A branch to bar 25 (printed 21, page 3 bottom) announced while in bar 14: shown next.
  expect(upcomingBars({ bar: 14, bars: 32, next: 25, limit: 3 })).toEqual([25, 26, 27]);
  expect(name(screenFor(halves, 14, upcomingBars({ bar: 14, bars: 32, next: 25 }), null))).toBe('2t/3b');
});

test('paging freely shows whole pages; the cursor stands at its beat in the bar', () => {
  expect(name(pageScreen(halves, 3))).toBe('3t/3b');
  expect(cursorPoint({ x: 100, y: 10, w: 200, h: 50 }, 3, 4)).toEqual({ x: 200, y: 10, h: 50 });
  expect(isBarMap(map, 32)).toBe(true);
  expect(isBarMap(map, 31)).toBe(false);
  expect(isBarMap({ ...map, bars: map.bars.map((b) => ({ ...b, page: 9 })) }, 32)).toBe(false);
});

test('the bars to come from the state: a jump announced by a future segment, a loop going round', () => {
  const segment = { index: 40, bar: 11, beat: 1, beats: 4, at: 5000, bpm: 120, step: 0, until: 60, end: false };
  // Playing bar 5 (index 16) at server time 1000; the next segment starts at bar 11 at 5000: a jump.
  expect(barsAfter({ transport: 'playing', segment }, { index: 16, bar: 5 }, 32, 1000).slice(0, 3)).toEqual([11, 12, 13]);
  // A segment that simply goes on (the next bar) is no jump.
  expect(barsAfter({ transport: 'playing', segment: { ...segment, bar: 6 } }, { index: 16, bar: 5 }, 32, 1000).slice(0, 2)).toEqual([6, 7]);
  // A loop over bars 3–6 going round (pass 1 of 3) holds beat 16 (bar 5): back to bar 3 after bar 6.
  const loop = { from: { bar: 3, beat: 1, index: 8 }, to: { bar: 6, beat: 4, index: 23 }, end: 24, pass: 1, of: 3, releasing: false };
  expect(barsAfter({ transport: 'stopped', loop }, { index: 16, bar: 5 }, 32, 1000).slice(0, 4)).toEqual([6, 3, 4, 5]);
  expect(barsAfter({ transport: 'stopped', loop: { ...loop, pass: 3 } }, { index: 16, bar: 5 }, 32, 1000).slice(0, 3)).toEqual([6, 7, 8]);
});
