// Votes inside a rehearsal loop (docs/how-to/rehearse.md#rehearsing): a prompt inside the range opens on the
// loop's first pass only, and while the loop is set the winner's branch is not taken (the result
// is still counted, shown and logged). Real show server, a real WebSocket viewer voting.
import { afterEach, expect, test } from '@jest/globals';
import { startShow } from '../../support/show.js';
import { openWs, waitFor } from '../../support/clients.js';
import { writeVoteScore, deviceId } from '../../support/vote-score.js';

const cleanup = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()();
});

async function metric(show, line) {
  const text = await show.metrics.exposition();
  const found = text.split('\n').find((l) => l.startsWith(line));
  return found ? Number(found.split(' ').pop()) : 0;
}

test('a prompt inside a loop opens on the first pass only; its winning branch is not taken while looping', async () => {
  // 180 bpm; the prompt opens at bar 2 for 6 beats (2 s: time to vote on a loaded machine), closing
  // inside the loop (a prompt still open at the loop point is dropped, as at a seek); option "d" jumps to section D (bar 13).
  const show = await startShow({ scorePath: writeVoteScore({ bpm: 180, beats: 6, reactions: [] }), autoplay: false });
  cleanup.push(() => show.close());
  const client = await openWs(show.audienceUrl);
  cleanup.push(() => client.ws.terminate());
  const res = await fetch(`${show.controlUrl}/api/loop`, {
    method: 'POST',
    headers: { authorization: `Bearer ${show.token}` },
    body: JSON.stringify({ from: { bar: 1 }, to: { bar: 3 }, passes: 3 }),
  });
  expect(res.status).toBe(200);
  const open = await waitFor(() => client.tracker.state?.vote, 5000, 'the prompt to open');
  const before = client.others.length;
  client.ws.send(JSON.stringify({ type: 'vote', key: open.key, option: 'd', device: deviceId(1) }));
  await waitFor(() => client.others.slice(before).find((m) => m.type === 'voted' && m.ok), 3000, 'the vote counted');
  const result = await waitFor(() => client.tracker.state?.vote?.closed && client.tracker.state.vote, 15_000, 'the result');
  expect(result).toMatchObject({ winner: 'd', counts: [0, 1, 0] });
  expect(result.branch).toBeUndefined();
  // Three passes of bars 1–3, then bar 4 and on to B — never D.
  // Wait on what the viewer has received, not on the server's position: bar 6 may still be on its way.
  const barsSeen = () => client.tracker.envelopes.map((e) => e.data?.position?.bar).filter((b) => b !== undefined);
  await waitFor(() => barsSeen().includes(6), 25_000, 'the viewer past the loop');
  const bars = barsSeen();
  const runs = bars.filter((b, k) => b !== bars[k - 1]);
  expect(runs.slice(0, 12)).toEqual([1, 2, 3, 1, 2, 3, 1, 2, 3, 4, 5, 6]);
  expect(bars).not.toContain(13);
  expect(await metric(show, 'tutti_prompts_opened_total')).toBe(1);
  expect(
    show.log
      .recent()
      .map((e) => e.msg)
      .join('\n'),
  ).toMatch(/prompt path closed: d wins with 1 of 1; no jump: a rehearsal loop is set/);
}, 45_000);
