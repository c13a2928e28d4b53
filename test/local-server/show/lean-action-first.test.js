// The action first, the look-ahead after (issue 27; docs/explanation/clock-sync.md#the-flywheel): on the lean stream an
// operator's seek, tempo change or vote opening reaches a viewer in an update of its own, without
// the new `ahead` chunks, and the chunks come in the very next update (a moment later:
// LOOK_AHEAD_DELAY_MS in local-server/src/show/show-streams.js) — no gap, and the viewer's
// state ends where the server's lean stream is. Real server, real control API, a lean WebSocket
// viewer that negotiates permessage-deflate as a browser does.
import { startShowServer } from '../../../local-server/src/server.js';
import { openWs, postControl, waitFor } from '../../support/clients.js';
import { OPERATOR_ACTIONS, actionShown } from '../../../bench/operator/actions.js';
import { removeOperatorScore, writeOperatorScore } from '../../../bench/operator/score.js';
import { DEFLATE_THRESHOLD_BYTES } from '../../../local-server/src/hub/ws-frame.js';

const token = 'test-token-lean-action-first';
const scorePath = writeOperatorScore('tutti-test-action-first-');
let server;

beforeAll(async () => {
  server = await startShowServer({ scorePath, host: '127.0.0.1', port: 0, controlPort: 0, token, autoplay: true });
});
afterAll(async () => {
  await server.close();
  removeOperatorScore(scorePath);
});

const control = async (request) => expect((await postControl(server.controlUrl, token, request)).status).toBe(200);

const bytesOf = (envelope) => Buffer.byteLength(JSON.stringify(envelope));

test('a seek, a tempo change and a vote opening: the action alone first, `ahead` in the next update', async () => {
  const viewer = await openWs(server.audienceUrl, { query: '?stream=lean', perMessageDeflate: true });
  const { tracker } = viewer;
  /** Index in tracker.envelopes of the first envelope whose state shows the watched action. */
  let watching = null;
  let shownAt = null;
  viewer.ws.on('message', () => {
    // openWs's own listener has applied the envelope already (listeners run in order).
    if (watching && shownAt === null && tracker.state && actionShown(watching, tracker.state)) shownAt = tracker.envelopes.length - 1;
  });
  try {
    expect(viewer.ws.extensions).toMatch(/permessage-deflate/);
    const caughtUp = () => tracker.state?.transport === 'playing' && tracker.seq === server.show.leanStream.seq();
    const seen = [];
    for (const name of ['seek', 'tempo', 'vote opens']) {
      const action = OPERATOR_ACTIONS.find((a) => a.name === name);
      await waitFor(caughtUp, 5000, 'the lean viewer caught up');
      expect(actionShown(action.spec, tracker.state)).toBe(false);
      watching = action.spec;
      shownAt = null;
      await control(action.request);
      await waitFor(() => shownAt !== null, 10_000, `${name} on the lean viewer`);
      // The look-ahead follows within LOOK_AHEAD_DELAY_MS, or with the next beat's update.
      await waitFor(() => tracker.envelopes.length > shownAt + 1, 5000, `the update after ${name}`);
      const [shown, next] = tracker.envelopes.slice(shownAt, shownAt + 2);
      // `ahead: null` (the old chunks removed) is fine in the first; chunks come only in the next.
      const chunks = (envelope) => envelope.data.ahead !== null && typeof envelope.data.ahead === 'object';
      seen.push({ name, bytes: bytesOf(shown), ahead: chunks(shown), nextSeq: next.seq - shown.seq, nextAhead: chunks(next) });
      watching = null;
      for (const undo of action.undo) await control(undo);
    }
    for (const s of seen) expect(s).toEqual({ name: s.name, bytes: s.bytes, ahead: false, nextSeq: 1, nextAhead: true });
    // The tempo change alone goes out uncompressed: no phone inflates the look-ahead to see it.
    expect(seen.find((s) => s.name === 'tempo').bytes).toBeLessThan(DEFLATE_THRESHOLD_BYTES);
    await waitFor(caughtUp, 5000, 'the lean viewer caught up at the end');
    expect(tracker.gaps).toBe(0);
    expect(tracker.state).toEqual(server.show.leanStream.state());
  } finally {
    viewer.ws.close();
  }
}, 60_000);
