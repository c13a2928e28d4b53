// The catch-up rule of the state stream (docs/reference/audience-protocol.md#endpoints), shared by the venue's
// replay buffer, the edge's root object and the edge's per-isolate feed cache: a client that
// holds seq S gets the deltas after S when the kept window still chains from S to the head,
// nothing when it is current, and otherwise the snapshot.

/**
 * The deltas a client at `since` needs.
 * @template {{ seq: number }} T
 * @param {readonly T[]} window consecutive deltas (seq n, n+1, …), oldest first
 * @param {number | null} since the seq the client holds; null = it holds nothing
 * @param {number | null} headSeq the stream's current seq; null = nothing published yet
 * @returns {T[] | null} [] when current, the deltas after `since` when the window chains from
 *   it (deltas first.seq..head are kept, so a client at first.seq - 1 or later can catch up),
 *   null when the client needs the snapshot
 */
export function deltasAfter(window, since, headSeq) {
  if (since === null || headSeq === null || since > headSeq) return null;
  if (since === headSeq) return [];
  const first = window[0];
  if (first === undefined || window[window.length - 1].seq !== headSeq || since < first.seq - 1) return null;
  return window.slice(since - first.seq + 1);
}
