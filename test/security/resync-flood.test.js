// Attack: a 17-byte {"type":"resync"} frame answered with the whole snapshot, sent 50 times a
// second (inside the 50 frames/s flood limit) to make the server push snapshots at the sender.
// Each socket now gets at most 3 at once and 6 a minute; the rest get no answer and are counted
// in tutti_bad_input_total{source="ws_resync"} (docs/explanation/threat-model.md). The socket stays open and keeps
// receiving the show's deltas.
import WebSocket from 'ws';
import { fileURLToPath } from 'node:url';
import { startShow } from '../support/show.js';
import { waitFor } from '../support/clients.js';
import { VIEWER_LIMITS } from '#core/protocol/viewer-limits.js';

// The load-test score: its snapshot is ≈18 KB, the size the attack is meant to amplify.
const BIG_SCORE = fileURLToPath(new URL('../../scores/union-rose-load.score.json', import.meta.url));

let server;
afterAll(() => server?.close());

const counted = async () => (await server.metrics.badInput.get()).values.find((v) => v.labels.source === 'ws_resync')?.value ?? 0;

test('resync sent 50/s for 5 s: a handful of snapshots, the rest counted and unanswered', async () => {
  server = await startShow({ scorePath: BIG_SCORE });
  const ws = new WebSocket(`ws://127.0.0.1:${server.audiencePort}/ws`, { localAddress: '127.0.0.2', perMessageDeflate: false });
  let snapshots = 0;
  let snapshotBytes = 0;
  let deltas = 0;
  // Listening before the socket opens: the join snapshot can come in the same read as the upgrade.
  ws.on('message', (data) => {
    const env = JSON.parse(data.toString());
    if (env.type === 'snapshot') {
      snapshots += 1;
      snapshotBytes += data.length;
    } else if (env.type === 'delta') deltas += 1;
  });
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  await waitFor(() => snapshots >= 1, 10_000, 'the join snapshot');
  const joinSnapshots = snapshots;
  const joinBytes = snapshotBytes;
  const sent = 250;
  const started = performance.now();
  for (let i = 0; i < sent; i += 1) {
    ws.send('{"type":"resync"}');
    await new Promise((r) => setTimeout(r, 20));
  }
  // Every resync has had its answer or been counted (the server's state, not a fixed wait).
  await waitFor(async () => snapshots - joinSnapshots + (await counted()) >= sent, 10_000, 'every resync answered or counted');
  const seconds = (performance.now() - started) / 1000;
  const answered = snapshots - joinSnapshots;
  console.log(
    `resync flood: ${sent} resyncs in ${(sent * 20) / 1000} s → ${answered} snapshots (${snapshotBytes - joinBytes} bytes), ${await counted()} counted, ${deltas} deltas still received`,
  );
  expect(answered).toBeGreaterThanOrEqual(3);
  // The burst, then the refill over however long a busy machine took to send them (6 a minute).
  const { burst, ratePerSecond } = VIEWER_LIMITS.resyncs;
  expect(answered).toBeLessThanOrEqual(burst + Math.ceil(ratePerSecond * seconds));
  expect(await counted()).toBe(sent - answered);
  expect(ws.readyState).toBe(WebSocket.OPEN);
  expect(deltas).toBeGreaterThan(0);
  ws.close();
}, 20_000);
