// The operator bench's shared parse-and-merge (bench/operator/envelope-cache.js) must give every
// phone exactly the state it would compute on its own: phones with the same state and the same
// bytes (each in a Buffer of its own, as off the wire) share the result, others do not — not even
// a message whose length and start are the same.
import { expect, test } from '@jest/globals';
import { createEnvelopeCache } from '../../bench/operator/envelope-cache.js';
import { applyEnvelope } from '#core/stream/state-stream.js';

const snapshot = JSON.stringify({
  v: 1,
  type: 'snapshot',
  epoch: 'e',
  seq: 1,
  t: 1,
  data: { transport: 'playing', view: { tiles: { a: 1, b: 2 } } },
});
const pause = JSON.stringify({
  v: 1,
  type: 'delta',
  epoch: 'e',
  seq: 2,
  t: 2,
  data: { transport: 'paused', view: { tiles: { a: null, c: 3 } } },
});
const other = JSON.stringify({ v: 1, type: 'snapshot', epoch: 'e', seq: 1, t: 1, data: { transport: 'stopped' } });
/** Each phone's own copy of the bytes. */
const wire = (text) => Buffer.from(text);

test('shared: the same results as each phone applying on its own, one merge for phones with the same state', () => {
  const shared = createEnvelopeCache('shared');
  const each = createEnvelopeCache('each');
  const phones = [snapshot, snapshot, other].map((first) => {
    const state = shared.apply(null, shared.read(wire(first)));
    return { first, state };
  });
  expect(phones[0].state).toBe(phones[1].state); // same bytes, same (absent) state: one parse
  for (const phone of phones) {
    const mine = shared.apply(phone.state, shared.read(wire(pause)));
    const alone = each.apply(each.apply(null, each.read(wire(phone.first))), each.read(wire(pause)));
    expect(mine).toEqual(alone);
    expect(mine).toEqual(applyEnvelope(applyEnvelope(null, JSON.parse(phone.first)), JSON.parse(pause)));
    phone.after = mine;
  }
  expect(phones[0].after).toBe(phones[1].after); // one merge for the two phones with one state
  expect(phones[2].after).not.toBe(phones[0].after);
  expect(phones[0].after).toEqual({ transport: 'paused', view: { tiles: { b: 2, c: 3 } } });
  expect(phones[2].after).toEqual({ transport: 'paused', view: { tiles: { c: 3 } } });
});

test('shared: a message with the same length and start but other bytes is parsed on its own', () => {
  const shared = createEnvelopeCache('shared');
  const long = (tile) => JSON.stringify({ v: 1, type: 'delta', epoch: 'e', seq: 2, t: 2, data: { pad: 'x'.repeat(200), tile } });
  const a = shared.read(wire(long('a')));
  const b = shared.read(wire(long('b')));
  expect(long('a')).toHaveLength(long('b').length);
  expect(b.envelope.data.tile).toBe('b');
  expect(shared.read(wire(long('b')))).toBe(b); // the same bytes again: one parse
  expect(a.envelope.data.tile).toBe('a');
  expect(() => shared.read(wire('{"v":1,'))).toThrow(SyntaxError);
});
