// OSC over real UDP (docs/reference/osc.md#address-space): beats and cues as plain messages by default
// and as timetagged bundles sent ahead for `mode=ahead` targets, transport messages, a dead target
// never blocking the others, the console's OSC routes (mode, offset, test ping and its round trip),
// the count-in through the same sender, a cue's true/false as 1/0, and OSC-in remote control.
// Timing: osc-timing.test.js.
import dgram from 'node:dgram';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Server, Client, Message } from 'node-osc';
import { startShowServer } from '../../../local-server/src/server.js';
import { waitFor } from '../../support/clients.js';
import { flagsScore } from '../../support/flags-score.js';
import { parseOscTarget } from '../../../local-server/src/osc/osc.js';
import { parseServeArgs } from '../../../local-server/src/cli/config.js';
import { float64, int64, message, str } from '../../support/osc-bytes.js';
import { freeUdpPort } from '../../support/free-port.js';

function listen() {
  return new Promise((resolve) => {
    const received = [];
    const server = new Server(0, '127.0.0.1', () => resolve({ server, received, port: server.port }));
    server.on('bundle', (b) => received.push({ kind: 'bundle', timetag: b.timetag, elements: b.elements, arrived: Date.now() }));
    server.on('message', (m) => received.push({ kind: 'message', message: m, arrived: Date.now() }));
  });
}

test('parseOscTarget accepts host:port and [v6]:port only', () => {
  expect(parseOscTarget('127.0.0.1:9000')).toEqual({ host: '127.0.0.1', port: 9000 });
  expect(parseOscTarget('[::1]:9000')).toEqual({ host: '::1', port: 9000 });
  for (const bad of ['127.0.0.1', ':9000', 'host:0', 'host:70000', 'a b:1', '']) expect(parseOscTarget(bad)).toBeNull();
});

test('--osc takes per-target options after HOST:PORT; old command lines and TUTTI_OSC lists still work; mistakes are named', () => {
  const parsed = (argv, env = {}) => parseServeArgs(argv, env);
  expect(parsed(['--osc', '10.0.0.2:9000', '--osc', '[::1]:57120,mode=ahead,offset=-20']).options.oscTargets).toEqual([
    { host: '10.0.0.2', port: 9000 },
    { host: '::1', port: 57120, mode: 'ahead', offsetMs: -20 },
  ]);
  expect(parsed(['--osc=a:1,offset=+12.5,b:2']).options.oscTargets).toEqual([
    { host: 'a', port: 1, offsetMs: 12.5 },
    { host: 'b', port: 2 },
  ]);
  expect(parsed([], { TUTTI_OSC: 'a:1,b:2,mode=ahead' }).options.oscTargets).toEqual([
    { host: 'a', port: 1 },
    { host: 'b', port: 2, mode: 'ahead' },
  ]);
  expect(parsed(['--osc', 'a:1', '--osc-plain']).options).toMatchObject({ oscPlain: true, oscTargets: [{ host: 'a', port: 1 }] });
  for (const [arg, message] of [
    ['a:1,mode=late', /--osc must be HOST:PORT\[,mode=plain\|ahead\]\[,offset=MS\] .*: a:1: mode must be plain or ahead, not "late"/],
    ['a:1,offset=-300', /offset must be a number of ms from -250 to 250/],
    ['a:1,offset=soon', /offset must be a number of ms/],
    ['offset=5,a:1', /"offset=5" must follow the HOST:PORT it applies to/],
    ['a:1,speed=2', /unknown OSC target option "speed"/],
    ['a', /"a" is not HOST:PORT/],
  ]) {
    const { errors, options } = parsed(['--osc', arg]);
    expect(errors.join('; ')).toMatch(message);
    expect(options.oscTargets.some((t) => t.host === 'a' && arg.includes('='))).toBe(false);
  }
});

test('mode=ahead targets get beats as bundles timetagged with the beat time, ahead of it; cues and transport too; a dead target blocks nobody', async () => {
  const a = await listen();
  const b = await listen();
  const dead = await freeUdpPort();
  const score = fileURLToPath(new URL('../../../scores/tidal-lines.score.json', import.meta.url));
  const server = await startShowServer({
    scorePath: score,
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    token: 't',
    oscTargets: [
      { host: '127.0.0.1', port: dead },
      { host: '127.0.0.1', port: a.port, mode: 'ahead' },
      { host: '127.0.0.1', port: b.port, mode: 'ahead' },
    ],
  });
  try {
    const firstCue = server.show.engine.score().cues.find((c) => c.osc);
    server.show.engine.seek(firstCue.at.bar, firstCue.at.beat);
    server.show.engine.play();
    await waitFor(() => a.received.filter((r) => r.kind === 'bundle').length >= 4, 8000, 'beats at target a');
    await waitFor(() => b.received.filter((r) => r.kind === 'bundle').length >= 4, 8000, 'beats at target b');
    const transport = a.received.find((r) => r.kind === 'message');
    expect(transport.message).toEqual(['/tutti/transport', 'playing']);
    const beats = a.received.filter((r) => r.kind === 'bundle' && r.elements[0][0] === '/tutti/beat');
    for (const beat of beats) {
      const [, bar, beatNo, bpm] = beat.elements[0];
      expect(Number.isInteger(bar) && Number.isInteger(beatNo)).toBe(true);
      expect(bpm).toBeGreaterThan(0);
      expect(beat.timetag * 1000).toBeGreaterThan(beat.arrived); // ahead of time
      expect(beat.timetag * 1000 - beat.arrived).toBeLessThan(1000);
    }
    const cue = a.received.find((r) => r.kind === 'bundle' && r.elements[0][0] !== '/tutti/beat');
    expect(cue).toBeDefined();
    const part = server.show.engine.score().parts.find((p) => p.id === firstCue.osc.part);
    expect(cue.elements[0][0]).toBe((part ? part.osc : '') + firstCue.osc.address);
    const status = server.status();
    expect(status.osc.targets).toHaveLength(3);
  } finally {
    await server.close();
    a.server.close();
    b.server.close();
  }
});

test('OSC-in controls the transport; garbage and unknown addresses are counted and ignored', async () => {
  const server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token: 't', oscInPort: 0 });
  const port = server.status().osc.in;
  const client = new Client('127.0.0.1', port);
  const raw = dgram.createSocket('udp4');
  try {
    await client.send(new Message('/tutti/play'));
    await waitFor(() => server.show.engine.status().transport === 'playing');
    await client.send(new Message('/tutti/seek', 5, 2));
    await waitFor(() => server.show.engine.status().position.bar >= 5);
    await client.send(new Message('/tutti/tempo', { type: 'f', value: 133 }));
    await waitFor(() => server.show.engine.status().tempo === 133);
    for (const junk of [Buffer.from('garbage'), Buffer.alloc(0), Buffer.from([0x2f, 0, 0, 0, 0x2c, 0x69]), Buffer.alloc(60000, 0xff)]) {
      raw.send(junk, port, '127.0.0.1');
    }
    await client.send(new Message('/tutti/explode', 1));
    await client.send(new Message('/tutti/seek', 'x'));
    await client.send(new Message('/tutti/pause'));
    await waitFor(() => server.show.engine.status().transport === 'paused');
    const text = await server.metrics.registry.getSingleMetricAsString('tutti_bad_input_total');
    const count = Number(/source="osc"\} (\d+)/.exec(text)?.[1] ?? 0);
    expect(count).toBeGreaterThanOrEqual(5);
    // Each accepted action is in the log (the console's Log panel), marked as OSC-in.
    const logged = server.log
      .recent()
      .map((e) => e.msg)
      .filter((m) => m.endsWith('(OSC-in)'));
    expect(logged[0]).toMatch(/^transport: play → playing at bar 1 /);
    expect(logged[1]).toMatch(/^transport: seek to bar 5 beat 2 → playing at bar \d+ beat \d+ \(OSC-in\)$/);
    expect(logged[2]).toBe('tempo: 133 bpm → 133 bpm now (OSC-in)');
    expect(logged.at(-1)).toMatch(/^transport: pause → paused at bar \d+/);
  } finally {
    raw.close();
    await client.close();
    await server.close();
  }
});

test('OSC-in reads what other tools send: 64-bit numbers (d, h), floats for bars, T/F, no type tags; a malformed packet or unknown address is logged with its reason', async () => {
  const server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token: 't', oscInPort: 0 });
  const port = server.status().osc.in;
  const raw = dgram.createSocket('udp4');
  const send = (bytes) => raw.send(bytes, port, '127.0.0.1');
  const status = () => server.show.engine.status();
  try {
    // A tempo as a 64-bit float and a seek as 64-bit integers (oscP5, Rust, Go, `oscsend … d`).
    send(message('/tutti/tempo', 'd', float64(101.5)));
    await waitFor(() => status().tempo === 101.5);
    send(message('/tutti/seek', 'hh', int64(7), int64(3)));
    await waitFor(() => status().position.bar === 7 && status().position.beat === 3);
    // Pd's [oscformat] sends every number as a float.
    send(message('/tutti/seek', 'ff', Buffer.from([0x41, 0x30, 0, 0]), Buffer.from([0x3f, 0x80, 0, 0]))); // 11.0, 1.0
    await waitFor(() => status().position.bar === 11);
    send(message('/tutti/rehearsal', 'T'));
    await waitFor(() => server.show.rehearsal() === true);
    // An old sender without a type tag string.
    send(str('/tutti/play'));
    await waitFor(() => status().transport === 'playing');

    send(message('/tutti/tempo', 'q', float64(90)));
    send(message('/tutti/explode', ''));
    await waitFor(() => server.log.recent().filter((e) => e.msg.startsWith('OSC-in: ')).length >= 2);
    const warnings = server.log
      .recent()
      .map((e) => e.msg)
      .filter((m) => m.startsWith('OSC-in: '));
    expect(warnings).toEqual([
      expect.stringMatching(/^OSC-in: ignoring a malformed packet from 127\.0\.0\.1: type tag 'q' is not an OSC type/),
      expect.stringMatching(/^OSC-in: \/tutti\/explode is not a Tutti command/),
    ]);
    expect(status().tempo).toBe(101.5);
  } finally {
    raw.close();
    await server.close();
  }
});

test('--osc-plain (old command lines): every target plain, even one that asks for ahead; beats and cues arrive as plain messages when they sound', async () => {
  const a = await listen();
  const score = fileURLToPath(new URL('../../../scores/tidal-lines.score.json', import.meta.url));
  const server = await startShowServer({
    scorePath: score,
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    token: 't',
    oscPlain: true,
    oscTargets: [{ host: '127.0.0.1', port: a.port, mode: 'ahead' }],
  });
  /** @type {Map<string, number>} "bar:beat" → the server-clock time it sounds */
  const soundsAt = new Map();
  server.show.events.on('beat', (beat) => soundsAt.set(`${beat.bar}:${beat.beat}`, beat.at));
  try {
    const firstCue = server.show.engine.score().cues.find((c) => c.osc);
    server.show.engine.seek(firstCue.at.bar, firstCue.at.beat);
    server.show.engine.play();
    const beats = () => a.received.filter((r) => r.kind === 'message' && r.message[0] === '/tutti/beat');
    await waitFor(() => beats().length >= 4, 8000, 'plain beat messages');
    expect(a.received.filter((r) => r.kind === 'bundle')).toEqual([]);
    for (const { message, arrived } of beats()) {
      const [, bar, beatNo, bpm] = message;
      expect(Number.isInteger(bar) && Number.isInteger(beatNo) && bpm > 0).toBe(true);
      // Announced 300 ms ahead, but sent when it sounds (the test shares the server's Date.now clock).
      expect(arrived).toBeGreaterThanOrEqual(soundsAt.get(`${bar}:${beatNo}`) - 5);
    }
    expect(a.received.some((r) => r.kind === 'message' && !['/tutti/beat', '/tutti/transport'].includes(r.message[0]))).toBe(true); // the cue
  } finally {
    await server.close();
    a.server.close();
  }
});

test("a cue's true/false arguments go out as the integers 1/0, which every receiver reads, keeping each argument in its place", async () => {
  const a = await listen();
  const dir = await mkdtemp(join(tmpdir(), 'tutti-osc-flags-'));
  const scorePath = join(dir, 'flags.score.json');
  await writeFile(scorePath, JSON.stringify(flagsScore('/flags')));
  const server = await startShowServer({
    scorePath,
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    token: 't',
    oscTargets: [{ host: '127.0.0.1', port: a.port }],
  });
  try {
    server.show.engine.play();
    const cue = () => a.received.find((r) => r.kind === 'message' && r.message[0] === '/flags');
    await waitFor(() => cue(), 8000, 'the /flags cue');
    expect(cue().message).toEqual(['/flags', 'A', 1, 0, 3, 0.5]);
  } finally {
    await server.close();
    a.server.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("mode=ahead to Sonic Pi's cue port (4560) is warned about: Sonic Pi 3 reads no bundles, and the first stops its OSC until it restarts", async () => {
  // Nothing is played, so nothing is sent: a Sonic Pi on this machine is left alone.
  const stoppedShow = (oscTargets, oscPlain = false) =>
    startShowServer({
      scorePath: fileURLToPath(new URL('../../../scores/demo.score.json', import.meta.url)),
      host: '127.0.0.1',
      port: 0,
      controlPort: 0,
      token: 'sonic-pi-warning-token',
      oscPlain,
      oscTargets,
    });
  const server = await stoppedShow([
    { host: '127.0.0.1', port: 4560, mode: 'ahead' },
    { host: '127.0.0.1', port: 57120, mode: 'ahead' },
  ]);
  const call = async (method, path, body) => {
    const res = await fetch(`${server.controlUrl}${path}`, {
      method,
      headers: { authorization: 'Bearer sonic-pi-warning-token', ...(body && { 'content-type': 'application/json' }) },
      body: body && JSON.stringify(body),
    });
    return res.json();
  };
  const warnings = async () =>
    (await call('GET', '/api/log')).entries.filter((e) => /^OSC target 127\.0\.0\.1:4560: port 4560 is Sonic Pi's/.test(e.msg));
  const targetWarnings = () => server.status().osc.targets.map((t) => [t.port, t.warning]);
  try {
    expect(targetWarnings()).toEqual([
      [
        4560,
        expect.stringMatching(
          /port 4560 is Sonic Pi's, and Sonic Pi 3 reads no bundles: .* stops its OSC until it restarts\. Use mode=plain/,
        ),
      ],
      [57120, null],
    ]);
    expect(await warnings()).toHaveLength(1);
    expect((await warnings())[0]).toMatchObject({ level: 'warn' });
    // The console's mode switch: plain clears it, ahead again says it again.
    await call('PATCH', '/api/osc/targets', { host: '127.0.0.1', port: 4560, mode: 'plain' });
    expect(targetWarnings()[0]).toEqual([4560, null]);
    await call('PATCH', '/api/osc/targets', { host: '127.0.0.1', port: 4560, mode: 'ahead' });
    expect(targetWarnings()[0][1]).toMatch(/Sonic Pi/);
    expect(await warnings()).toHaveLength(2);
  } finally {
    await server.close();
  }
  // --osc-plain sends everything plain: nothing to warn about.
  const plain = await stoppedShow([{ host: '127.0.0.1', port: 4560, mode: 'ahead' }], true);
  try {
    expect(plain.status().osc.targets.map((t) => t.warning)).toEqual([null]);
  } finally {
    await plain.close();
  }
});
