// Attack: one 56 KB UDP datagram holding a bundle of 2,000 /tutti/seek commands, then a stream
// of single commands as fast as a loop can send them. Each accepted command is a state change
// pushed to every phone; before, that datagram became 2,000 deltas. Now a packet carries at most
// 8 commands and OSC-in accepts 20 a second; the rest are counted in
// tutti_bad_input_total{source="osc_flood"} and dropped (docs/explanation/threat-model.md).
import dgram from 'node:dgram';
import { Bundle, Message, encode } from 'node-osc';
import { startShow } from '../support/show.js';
import { waitFor } from '../support/clients.js';

let server;
let sender;
afterAll(async () => {
  sender?.close();
  await server?.close();
});

const flooded = async () => (await server.metrics.badInput.get()).values.find((v) => v.labels.source === 'osc_flood')?.value ?? 0;

test('a 56 KB bundle of 2,000 seeks becomes at most 8 deltas; a burst of singles is capped at 20/s', async () => {
  server = await startShow({ oscInPort: 0, autoplay: false });
  const port = server.status().osc.in;
  sender = dgram.createSocket('udp4');
  const bars = server.show.engine.score().bars;
  const seeks = Array.from({ length: 2000 }, (_, i) => ['/tutti/seek', 1 + (i % (bars - 1)), 1]);
  const datagram = encode(new Bundle(...seeks));
  expect(datagram.length).toBeGreaterThan(50_000);
  expect(datagram.length).toBeLessThan(65_507);

  const seqBefore = server.show.stream.seq();
  await new Promise((r) => sender.send(datagram, port, '127.0.0.1', r));
  await waitFor(async () => (await flooded()) > 0, 3000, 'the flood to be counted');
  await new Promise((r) => setTimeout(r, 200));
  const deltas = server.show.stream.seq() - seqBefore;
  console.log(`OSC bundle flood: ${datagram.length}-byte datagram of 2000 seeks → ${deltas} deltas, ${await flooded()} commands dropped`);
  expect(deltas).toBeLessThanOrEqual(8);
  expect(deltas).toBeGreaterThan(0);
  expect(await flooded()).toBe(2000 - 8);

  // 200 single seeks in a tight loop: the bucket (12 tokens left, refilling 20/s) lets a few dozen through.
  const before = server.show.stream.seq();
  const started = performance.now();
  for (let i = 0; i < 200; i += 1) sender.send(encode(new Message('/tutti/seek', 1 + (i % (bars - 1)), 1)), port, '127.0.0.1');
  await waitFor(async () => (await flooded()) >= 2000 - 8 + 100, 3000, 'singles dropped');
  const seconds = (performance.now() - started) / 1000;
  const accepted = server.show.stream.seq() - before;
  console.log(`OSC single flood: 200 seeks → ${accepted} deltas in ${seconds.toFixed(2)} s`);
  expect(accepted).toBeLessThanOrEqual(20 + Math.ceil(20 * seconds) + 1);
  // A legitimate command a second later still works.
  await new Promise((r) => setTimeout(r, 1000));
  sender.send(encode(new Message('/tutti/play')), port, '127.0.0.1');
  await waitFor(() => server.show.engine.status().transport === 'playing', 3000, 'play after the flood');
});

test('junk does not spend the command budget: after 100 unknown messages a real command still works', async () => {
  const fresh = await startShow({ oscInPort: 0 });
  try {
    const port = fresh.status().osc.in;
    const junk = dgram.createSocket('udp4');
    for (let i = 0; i < 100; i += 1) junk.send(encode(new Message('/not/a/command', i)), port, '127.0.0.1');
    await new Promise((r) => junk.send(encode(new Message('/tutti/pause')), port, '127.0.0.1', r));
    await waitFor(() => fresh.show.engine.status().transport === 'paused', 3000, 'pause after junk');
    junk.close();
  } finally {
    await fresh.close();
  }
});
