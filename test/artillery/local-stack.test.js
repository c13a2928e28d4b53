// What run.js relies on before and during a run: a show that is not moving is refused with a
// clear message (viewer tests would measure silence), and a show started for the test is kept
// playing when the piece ends.

import { startLoadShow } from './helpers.js';
import { expectAdvancing, keepPlaying, waitForShow } from '../../artillery/lib/local-stack.js';

let show;

beforeAll(async () => {
  show = await startLoadShow({ autoplay: false });
});

afterAll(async () => {
  await show?.close();
});

test('a stopped show is refused, with what to do; once it plays it is accepted', async () => {
  await waitForShow(show.audienceUrl, { timeoutMs: 5000 });
  await expect(expectAdvancing(show.audienceUrl, { withinMs: 1500 })).rejects.toThrow(
    /is not moving \(seq stayed at \d+ for 1\.5 s; transport "stopped": start it \(tutti serve --autoplay/,
  );
  const player = keepPlaying({ controlUrl: show.controlUrl, token: show.token, everyMs: 100 });
  try {
    await expectAdvancing(show.audienceUrl, { withinMs: 5000 });
    // The POST's answer may come just after the first new envelope.
    for (let i = 0; i < 50 && player.restarts() === 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(player.restarts()).toBe(1);
    expect(show.status().transport).toBe('playing');
  } finally {
    player.stop();
  }
}, 15_000);
