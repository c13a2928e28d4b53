// OSC-in's warnings about commands with bad arguments (local-server/src/osc/osc-in.js, issue 40
// item 15): a sender repeating a mistake printed one line per command, up to the 20/s budget
// (219 lines in 10 s), flushing the console's log view. Like malformed packets, they are now one
// line a minute, with how many were not printed. Real UDP into OSC-in on a real show server.
import { expect, test } from '@jest/globals';
import dgram from 'node:dgram';
import { startShow } from '../../support/show.js';
import { waitFor } from '../../support/clients.js';
import { message, str } from '../../support/osc-bytes.js';
import { startOscIn } from '../../../local-server/src/osc/osc-in.js';
import { createLog } from '../../../local-server/src/logs/log.js';

test('bad arguments: one line a minute per sender mistake, then the count of those not printed', async () => {
  const server = await startShow({ autoplay: false });
  const log = createLog();
  let clock = 1_000_000;
  const oscIn = await startOscIn({ port: 0, show: server.show, metrics: server.metrics, log, wallClock: () => clock });
  const socket = dgram.createSocket('udp4');
  const send = (bytes) => new Promise((resolve) => socket.send(bytes, oscIn.port, '127.0.0.1', resolve));
  const counted = async () =>
    Number(/source="osc"\} (\d+)/.exec(await server.metrics.registry.getSingleMetricAsString('tutti_bad_input_total'))?.[1] ?? 0);
  const lines = () => log.recent().filter((e) => e.level === 'warn' && e.msg.startsWith('OSC-in /tutti/'));
  try {
    // 15 bad seeks (under the 20/s budget, so each one is carried out and refused).
    for (let i = 0; i < 15; i += 1) await send(message('/tutti/seek', 's', str('nowhere')));
    await waitFor(async () => (await counted()) >= 15, 5000, '15 refusals counted');
    expect(lines()).toHaveLength(1);
    expect(lines()[0].msg).toMatch(/^OSC-in \/tutti\/seek: .*counted in tutti_bad_input_total\{source="osc"\}$/);

    // A minute later the next one is printed, with the count of the 14 not printed.
    clock += 60_000;
    await send(message('/tutti/start', 's', str('no-such-place')));
    await waitFor(() => lines().length === 2, 5000, 'the next line');
    expect(lines()[1].msg).toMatch(/^OSC-in \/tutti\/start: .*\(and 14 more like it since the last such line\)$/);
    expect(await counted()).toBe(16);
  } finally {
    socket.close();
    await oscIn.close();
    await server.close();
  }
});
