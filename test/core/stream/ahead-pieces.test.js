// The full stream's `ahead` in pieces (issue 27): no beat's delta carries a whole chunk that starts
// later, every piece arrives before the beat it starts at, and a viewer ends up with the same cues.

import { createStateStream } from '#core/stream/state-stream.js';
import { createAheadStager, splitChunk, AHEAD_PIECE_BYTES } from '#core/stream/ahead-pieces.js';
import { aheadItems } from '#core/client/flywheel.js';
import { createFakeClock } from '../../support/fake-clock.js';
import { engineOnFakeClock, loadTestScore } from '../../support/engine-on-fake-clock.js';

const loadScore = loadTestScore();

/** Play the load-test score on a fake clock; the full stream publishes staged (or, with stage: false, raw) states. */
function play({ stage = true, steps }) {
  const clock = createFakeClock();
  const stream = createStateStream({ epoch: 'e', state: {}, now: clock.now });
  const stager = createAheadStager();
  /** @type {Array<{ bytes: number, raw: any, published: any, reanchor: boolean }>} */
  const updates = [];
  let lastSegmentAt = null;
  const { engine } = engineOnFakeClock(
    loadScore,
    (state) => {
      const published = stage ? stager.stage(state) : state;
      const u = stream.update(published);
      if (!u) return;
      const reanchor = state.segment?.at !== undefined && lastSegmentAt === null;
      lastSegmentAt = state.segment?.at ?? null;
      updates.push({ bytes: Buffer.byteLength(u.json), raw: state, published: stream.state(), reanchor });
    },
    clock,
  );
  steps(engine, clock);
  engine.dispose?.();
  return updates;
}

const steadyPlay = (engine, clock) => {
  engine.play();
  clock.advance(120_000);
};

describe('splitChunk', () => {
  const item = (i, text) => ({ i, at: i * 500, view: { text } });
  test('pieces tile the chunk, keep every item in order and stay near the byte budget', () => {
    const items = Array.from({ length: 40 }, (_, k) => item(10 + k, 'x'.repeat(60)));
    const pieces = splitChunk(10, { until: 60, items }, 400);
    expect(pieces.length).toBeGreaterThan(4);
    expect(pieces[0][0]).toBe('10');
    expect(pieces.at(-1)[1].until).toBe(60);
    for (let p = 1; p < pieces.length; p += 1) expect(Number(pieces[p][0])).toBe(pieces[p - 1][1].until);
    expect(pieces.flatMap(([, piece]) => piece.items)).toEqual(items);
    for (const [key, piece] of pieces) {
      for (const it of piece.items) expect(it.i >= Number(key) && it.i < piece.until).toBe(true);
      expect(JSON.stringify(piece.items).length).toBeLessThan(400 + 120);
    }
  });
  test('items of one beat are never split, and a huge item is a piece alone', () => {
    const items = [item(3, 'a'), item(3, 'b'.repeat(500)), item(4, 'c'.repeat(2000)), item(5, 'd')];
    const pieces = splitChunk(3, { until: 9, items }, 300);
    expect(pieces.map(([key, piece]) => [key, piece.until, piece.items.length])).toEqual([
      ['3', 4, 2],
      ['4', 5, 1],
      ['5', 9, 1],
    ]);
  });
});

describe('the full stream with ahead in pieces', () => {
  test('without pieces, a window move puts a whole chunk (several KB) into one beat delta', () => {
    const updates = play({ stage: false, steps: steadyPlay });
    const steady = updates.filter((u) => !u.reanchor);
    expect(Math.max(...steady.map((u) => u.bytes))).toBeGreaterThan(2500);
  });

  test('with pieces, every delta after the start stays under one piece plus the beat', () => {
    const updates = play({ steps: steadyPlay });
    const steady = updates.filter((u) => !u.reanchor);
    expect(steady.length).toBeGreaterThan(200);
    // one piece (≤ AHEAD_PIECE_BYTES of items, or one larger item) + the beat and view (~0.6 KB)
    expect(Math.max(...steady.map((u) => u.bytes))).toBeLessThan(AHEAD_PIECE_BYTES + 800);
  });

  test('each beat, the published ahead holds every cue the engine holds from that beat on, and all of it soon after a window move', () => {
    const updates = play({ steps: steadyPlay });
    let complete = 0;
    for (const { raw, published } of updates) {
      if (raw.transport !== 'playing') continue;
      const beat = raw.position.index;
      const key = (it) => `${it.i}:${it.at}:${JSON.stringify(it.view ?? it.audio)}`;
      const rawItems = aheadItems(raw).map(key);
      const have = new Set(aheadItems(published).map(key));
      // everything that sounds within the next 8 beats is there already
      const soon = aheadItems(raw).filter((it) => it.i <= beat + 8);
      for (const it of soon) expect(have.has(key(it))).toBe(true);
      // nothing the engine does not hold
      for (const k of have) expect(rawItems).toContain(k);
      if (rawItems.length === have.size) complete += 1;
    }
    // pieces trail a window move by a few beats only
    expect(complete / updates.length).toBeGreaterThan(0.7);
  });

  test('a seek sends the chunk the show is in whole at once', () => {
    const updates = play({
      steps: (engine, clock) => {
        engine.play();
        clock.advance(20_000);
        engine.seek(40, 1);
        clock.advance(1_000);
      },
    });
    const afterSeek = updates.filter((u) => u.raw.transport === 'playing' && u.raw.position.bar >= 40)[0];
    const [firstKey] = Object.keys(afterSeek.raw.ahead).sort((a, b) => a - b);
    expect(afterSeek.published.ahead[firstKey]).toEqual(afterSeek.raw.ahead[firstKey]);
  });

  test('reset counts the chunks of the snapshot as sent (no re-sending them in pieces)', () => {
    const stager = createAheadStager();
    const chunk = { until: 90, items: Array.from({ length: 30 }, (_, k) => ({ i: 60 + k, at: k, view: { text: 'y'.repeat(80) } })) };
    const state = { transport: 'playing', position: { index: 10 }, ahead: { 60: chunk } };
    stager.reset(state);
    expect(stager.stage({ ...state, position: { index: 11 } }).ahead).toEqual({ 60: chunk });
    const fresh = createAheadStager();
    expect(Object.keys(fresh.stage({ ...state, position: { index: 11 } }).ahead)).toEqual(['60']);
    expect(fresh.stage({ ...state, position: { index: 11 } }).ahead['60'].items.length).toBeLessThan(30);
  });
});
