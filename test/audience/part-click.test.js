// The part page's click (web/audience/part/click.js, docs/how-to/part-pages.md#part-pages) on a stand-in Web
// Audio context (Node has none; the real one is exercised in Chromium by part-page and
// part-rehearsal): a click is put on the audio clock once per key, even when its tone has ended
// before the page's clock reached its beat (the audio and page clocks disagree by a few ms on a
// busy page: the fresh-clone run saw the last count-in click scheduled twice), and none put on a
// young context's unsteady clock.
import { afterEach, beforeEach, expect, test } from '@jest/globals';
import { createClick } from '../../web/audience/part/click.js';

/** A Web Audio context whose clock the test moves; oscillators remember their `onended`. */
class StandInContext {
  /** @type {StandInContext[]} */
  static made = [];
  constructor() {
    StandInContext.made.push(this);
    this.state = 'running';
    this.currentTime = 10;
    this.destination = {};
    /** @type {any[]} */
    this.oscillators = [];
  }
  createOscillator() {
    const osc = { frequency: {}, onended: null, connect: (node) => node, start() {}, stop() {} };
    this.oscillators.push(osc);
    return osc;
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (node) => node };
  }
  createBufferSource() {
    return { connect() {}, start() {} };
  }
  createBuffer() {
    return {};
  }
}

beforeEach(() => {
  /** @type {any} */ (globalThis).window = { AudioContext: StandInContext };
});
afterEach(() => {
  delete (/** @type {any} */ (globalThis).window);
});

/** Server time = page time (epoch ms) in these tests. */
const nowMs = () => performance.timeOrigin + performance.now();

test('a click whose tone ended early is not scheduled again; a cancelled one may be', async () => {
  const click = createClick({ toLocal: (serverMs) => serverMs });
  expect(await click.unlock()).toBe(true);
  const beat = { index: -8, bar: 0, beat: 4, at: nowMs() + 500 };
  click.schedule('countin|1|8', beat, { accent: false, countIn: 4 });
  expect(click.scheduled()).toHaveLength(1);

  // Its tone ends while the page still thinks the beat is ahead, and the page plans again.
  const [context] = StandInContext.made.slice(-1);
  context.oscillators[0].onended();
  click.schedule('countin|1|8', beat, { accent: false, countIn: 4 });
  expect(click.scheduled().map((r) => r.key)).toEqual(['countin|1|8']);

  // A click cancelled (a seek) before it sounded may be scheduled again with the new plan.
  const later = { index: -7, bar: 0, beat: 1, at: nowMs() + 700 };
  click.schedule('countin|1|9', later, { accent: true, countIn: 1 });
  click.cancelFrom(nowMs());
  context.oscillators[1].onended(); // a stopped oscillator still ends
  click.schedule('countin|1|9', later, { accent: true, countIn: 1 });
  expect(click.scheduled().map((r) => [r.key, r.cancelled])).toEqual([
    ['countin|1|8', false],
    ['countin|1|9', true],
    ['countin|1|9', false],
  ]);
});

test("a young context's clock: no click before it has run 0.25 s, but one due after that is scheduled at once (a count-in just after the click was switched on keeps its first click)", async () => {
  const click = createClick({ toLocal: (serverMs) => serverMs });
  expect(await click.unlock()).toBe(true);
  const [context] = StandInContext.made.slice(-1);
  context.currentTime = 0.05; // just started: WebKit's clock jumped 0.060 → 0.134 s here
  // A count-in's first click, one lookahead (300 ms) ahead: at 0.35 s on the context's clock.
  click.schedule('countin|2|1', { index: -8, bar: 0, beat: 1, at: nowMs() + 300 }, { accent: true, countIn: 1 });
  // A click 100 ms ahead, at 0.15 s: inside the unsteady start, left out.
  click.schedule('beat|1', { index: 0, bar: 1, beat: 1, at: nowMs() + 100 }, { accent: true, countIn: null });
  expect(click.scheduled().map((r) => r.key)).toEqual(['countin|2|1']);
  expect(click.scheduled()[0].when).toBeGreaterThan(0.25);
});
