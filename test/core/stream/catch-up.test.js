import { deltasAfter } from '#core/stream/catch-up.js';

const window = [5, 6, 7, 8].map((seq) => ({ seq }));
const seqs = (out) => (out === null ? null : out.map((d) => d.seq));

test('a client in the window gets exactly the deltas after its seq', () => {
  expect(seqs(deltasAfter(window, 4, 8))).toEqual([5, 6, 7, 8]); // first.seq - 1 still chains
  expect(seqs(deltasAfter(window, 6, 8))).toEqual([7, 8]);
  expect(seqs(deltasAfter(window, 8, 8))).toEqual([]);
});

test('outside the window, ahead of the head, or holding nothing: the snapshot', () => {
  expect(deltasAfter(window, 3, 8)).toBeNull();
  expect(deltasAfter(window, 9, 8)).toBeNull();
  expect(deltasAfter(window, null, 8)).toBeNull();
  expect(deltasAfter(window, 4, null)).toBeNull();
});

test('a window that does not reach the head (a snapshot came after it) cannot chain', () => {
  expect(deltasAfter(window, 6, 9)).toBeNull();
  expect(deltasAfter([], 6, 9)).toBeNull();
  expect(seqs(deltasAfter([], 9, 9))).toEqual([]);
});
