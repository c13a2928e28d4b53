// Attack: a 17-byte {"type":"resync"} frame answered with the whole snapshot, sent 50 times a
// second (inside the 50 frames/s flood limit) to make the server push snapshots at the sender.
// Each socket now gets at most 3 at once and 6 a minute; the rest get no answer and are counted
// in tutti_bad_input_total{source="ws_resync"} (SECURITY.md). The socket stays open and keeps
// receiving the show's deltas.
import WebSocket from 'ws';
import { fileURLToPath } from 'node:url';
import { startShow } from '../support/show.js';

// The load-test score: its snapshot is ≈18 KB, the size the attack is meant to amplify.
const BIG_SCORE = fileURLToPath(new URL('../../scores/union-rose-load.score.json', import.meta.url));

let server;
afterAll(() => server?.close());

const counted = async () => (await server.metrics.badInput.get()).values.find((v) => v.labels.source === 'ws_resync')?.value ?? 0;

test('resync sent 50/s for 5 s: a handful of snapshots, the rest counted and unanswered', async () => {
  server = await startShow({ scorePath: BIG_SCORE });
  const ws = new WebSocket(`ws://127.0.0.1:${server.audiencePort}/ws`, { localAddress: '127.0.0.2', perMessageDeflate: false });
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  let snapshots = 0;
  let snapshotBytes = 0;
  let deltas = 0;
  ws.on('message', (data) => {
    const env = JSON.parse(data.toString());
    if (env.type === 'snapshot') {
      snapshots += 1;
      snapshotBytes += data.length;
    } else if (env.type === 'delta') deltas += 1;
  });
  await new Promise((r) => setTimeout(r, 200)); // the join snapshot has arrived
  const joinSnapshots = snapshots;
  const joinBytes = snapshotBytes;
  const sent = 250;
  for (let i = 0; i < sent; i += 1) {
    ws.send('{"type":"resync"}');
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 300));
  const answered = snapshots - joinSnapshots;
  console.log(
    `resync flood: ${sent} resyncs in ${(sent * 20) / 1000} s → ${answered} snapshots (${snapshotBytes - joinBytes} bytes), ${await counted()} counted, ${deltas} deltas still received`,
  );
  expect(answered).toBeGreaterThanOrEqual(3);
  expect(answered).toBeLessThanOrEqual(4);
  expect(await counted()).toBe(sent - answered);
  expect(ws.readyState).toBe(WebSocket.OPEN);
  expect(deltas).toBeGreaterThan(0);
  ws.close();
}, 20_000);
