// Attack: anyone on the venue Wi-Fi sends /tutti/stop to the OSC-in port. OSC-in now listens on
// 127.0.0.1 unless told otherwise (--osc-in [HOST:]PORT; a bare port stays on this machine), and
// with --osc-allow only senders inside those ranges are heard; others are counted in
// tutti_bad_input_total{source="osc_denied"} and ignored (docs/explanation/threat-model.md). Senders are bound to
// other 127/8 addresses, so the test never leaves this machine.
import dgram from 'node:dgram';
import { Message, encode } from 'node-osc';
import { startShow } from '../support/show.js';
import { waitFor } from '../support/clients.js';
import { parseServeArgs } from '../../local-server/src/cli/config.js';

const servers = [];
const sockets = [];
afterAll(async () => {
  sockets.forEach((s) => s.close());
  await Promise.all(servers.map((s) => s.close()));
});

async function udpFrom(address, type = 'udp4') {
  const s = dgram.createSocket(type);
  sockets.push(s);
  await new Promise((r) => s.bind(0, address, r));
  return s;
}
const denied = async (server) => (await server.metrics.badInput.get()).values.find((v) => v.labels.source === 'osc_denied')?.value ?? 0;
const send = (socket, message, port, host) => new Promise((r) => socket.send(encode(message), port, host, r));

test('a bare --osc-in PORT listens on 127.0.0.1 only; HOST:PORT picks the address', () => {
  expect(parseServeArgs(['--osc-in', '9000']).options).toMatchObject({ oscInPort: 9000, oscInHost: '127.0.0.1' });
  expect(parseServeArgs(['--osc-in', '0.0.0.0:9000']).options).toMatchObject({ oscInPort: 9000, oscInHost: '0.0.0.0' });
  expect(parseServeArgs(['--osc-in', '[::1]:9000']).options).toMatchObject({ oscInPort: 9000, oscInHost: '::1' });
  expect(parseServeArgs([], { TUTTI_OSC_IN: '9001' }).options).toMatchObject({ oscInPort: 9001, oscInHost: '127.0.0.1' });
  expect(parseServeArgs(['--osc-in', 'venue:99999']).errors[0]).toMatch(/--osc-in must be PORT or HOST:PORT/);
  const allow = parseServeArgs(['--osc-allow', '192.168.1.0/24,fd00::/8', '--osc-allow', '10.0.0.7']).options.oscAllow;
  expect(allow).toEqual([
    { address: '192.168.1.0', prefix: 24, family: 'ipv4' },
    { address: 'fd00::', prefix: 8, family: 'ipv6' },
    { address: '10.0.0.7', prefix: 32, family: 'ipv4' },
  ]);
  expect(parseServeArgs(['--osc-allow', '10.0.0.0/33']).errors[0]).toMatch(/--osc-allow must be an address or CIDR range/);
});

test('default OSC-in is bound to 127.0.0.1', async () => {
  const server = await startShow({ oscInPort: 0 });
  servers.push(server);
  expect(server.status().osc.inHost).toBe('127.0.0.1');
});

test('--osc-allow: a sender outside the ranges cannot stop the show; one inside can (IPv4 and IPv6)', async () => {
  const { options } = parseServeArgs(['--osc-allow', '127.0.0.2/32,::1']);
  const server = await startShow({ oscInPort: 0, oscInHost: '127.0.0.1', oscAllow: options.oscAllow });
  servers.push(server);
  const port = server.status().osc.in;
  expect(server.show.engine.status().transport).toBe('playing');
  const stranger = await udpFrom('127.0.0.3');
  for (let i = 0; i < 5; i += 1) await send(stranger, new Message('/tutti/stop'), port, '127.0.0.1');
  await waitFor(async () => (await denied(server)) >= 5, 3000, 'denied packets counted');
  expect(server.show.engine.status().transport).toBe('playing');
  const musician = await udpFrom('127.0.0.2');
  await send(musician, new Message('/tutti/pause'), port, '127.0.0.1');
  await waitFor(() => server.show.engine.status().transport === 'paused', 3000, 'pause from an allowed sender');

  const server6 = await startShow({ oscInPort: 0, oscInHost: '::1', oscAllow: options.oscAllow });
  servers.push(server6);
  expect(server6.status().osc.inHost).toBe('::1');
  const musician6 = await udpFrom('::1', 'udp6');
  await send(musician6, new Message('/tutti/stop'), server6.status().osc.in, '::1');
  await waitFor(() => server6.show.engine.status().transport === 'stopped', 3000, 'stop from ::1');
});
