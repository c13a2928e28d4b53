// The OSC decoder behind OSC-in and the Test ping's echo (local-server/src/osc/osc-decode.js): every
// type the OSC 1.0 spec lists, byte layouts written out by hand here (not by an encoder that
// could share a mistake), node-osc's packets still read the same, and malformed packets rejected
// with a reason.
import { Bundle, Message, encode } from 'node-osc';
import { OscDecodeError, decodeOsc } from '../../../local-server/src/osc/osc-decode.js';
import { float64, int32, int64, message, str } from '../../support/osc-bytes.js';

const values = (packet) => packet.args.map((a) => a.value);

test('64-bit floats and integers (d, h), as Java, Rust, Go and Python libraries send them', () => {
  expect(decodeOsc(message('/tutti/tempo', 'd', float64(100.5)))).toEqual({
    oscType: 'message',
    address: '/tutti/tempo',
    args: [{ type: 'd', value: 100.5 }],
  });
  expect(values(decodeOsc(message('/tutti/seek', 'hh', int64(17), int64(2))))).toEqual([17, 2]);
  // Outside 2^53 an int64 stays a BigInt: no command takes it as an integer.
  expect(typeof values(decodeOsc(message('/x', 'h', int64(2n ** 60n))))[0]).toBe('bigint');
});

test('the other types: strings and symbols, chars, timetags, blobs, colours, MIDI, T F N I', () => {
  const timetag = Buffer.alloc(8);
  timetag.writeUInt32BE(2_208_988_800 + 1_700_000_000);
  timetag.writeUInt32BE(2 ** 31, 4);
  const blob = Buffer.concat([int32(5), Buffer.from([1, 2, 3, 4, 5, 0, 0, 0])]);
  const packet = decodeOsc(
    message('/all', 'sSctbrmTFNIi', str('p17'), str('A'), int32(0x41), timetag, blob, int32(0xff00ff00 | 0), int32(0x00904064), int32(-3)),
  );
  expect(values(packet)).toEqual([
    'p17',
    'A',
    'A',
    1_700_000_000.5,
    Buffer.from([1, 2, 3, 4, 5]),
    0xff00ff00,
    Uint8Array.from([0, 0x90, 0x40, 0x64]),
    true,
    false,
    null,
    null,
    -3,
  ]);
});

test("node-osc's own packets read as node-osc reads them: messages, nested bundles, no type tags at all", () => {
  expect(decodeOsc(encode(new Message('/tutti/seek', 5, 2)))).toMatchObject({
    address: '/tutti/seek',
    args: [
      { type: 'i', value: 5 },
      { type: 'i', value: 2 },
    ],
  });
  expect(values(decodeOsc(encode(new Message('/tutti/tempo', { type: 'f', value: 133 }))))).toEqual([133]);
  const inner = new Bundle(['/tutti/play']);
  const outer = new Bundle(['/tutti/seek', 3], inner);
  const decoded = decodeOsc(encode(outer));
  expect(decoded).toMatchObject({
    oscType: 'bundle',
    elements: [{ address: '/tutti/seek' }, { oscType: 'bundle', elements: [{ address: '/tutti/play' }] }],
  });
  // OSC 1.0: an old sender may leave out the type tag string.
  expect(decodeOsc(str('/tutti/play'))).toEqual({ oscType: 'message', address: '/tutti/play', args: [] });
});

test('malformed packets are refused with the reason, never half-read', () => {
  const bundleHead = Buffer.concat([str('#bundle'), Buffer.alloc(8)]);
  let nested = Buffer.concat([str('/x'), str(',')]);
  for (let i = 0; i < 9; i += 1) nested = Buffer.concat([bundleHead, int32(nested.length), nested]);
  const cases = [
    [Buffer.alloc(0), /empty/],
    [Buffer.from('garbage'), /multiple of 4/],
    [Buffer.from('nope'), /no terminating NUL/],
    [str('tutti'), /does not start with "\/"/],
    [Buffer.concat([str('/x'), str('i')]), /does not start with ","/],
    [message('/x', 'd', int32(1)), /argument 'd' runs past the end/],
    [message('/x', 'q', int32(1)), /type tag 'q' is not an OSC type/],
    [message('/x', '[i]', int32(1)), /arrays/],
    [message('/x', 'b', int32(64)), /a blob runs past the end/],
    [message('/x', 'b', int32(-4)), /negative/],
    [Buffer.concat([bundleHead, int32(6), Buffer.alloc(4)]), /not a positive multiple of 4/],
    [Buffer.concat([bundleHead, int32(64), Buffer.alloc(4)]), /a bundle element runs past the end/],
    [nested, /nested deeper than 8/],
  ];
  for (const [bytes, reason] of cases) {
    expect(() => decodeOsc(bytes)).toThrow(OscDecodeError);
    expect(() => decodeOsc(bytes)).toThrow(reason);
  }
});

test('any corruption of a real packet decodes or is refused as malformed: nothing else is thrown', () => {
  const seeds = [
    message('/tutti/seek', 'hhc', int64(7), int64(3), int32(0x41)),
    message('/tutti/start', 'sdib', str('p17'), float64(1), int32(2), Buffer.concat([int32(3), Buffer.alloc(4)])),
    Buffer.concat([str('#bundle'), Buffer.alloc(8), int32(16), message('/tutti/tempo', 'f', Buffer.alloc(4))]),
  ];
  let refused = 0;
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 3000; i += 1) {
    const bytes = Buffer.from(seeds[i % seeds.length]);
    for (let flips = 1 + Math.floor(random() * 4); flips > 0; flips -= 1)
      bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
    try {
      decodeOsc(bytes);
    } catch (err) {
      expect(err).toBeInstanceOf(OscDecodeError);
      refused += 1;
    }
  }
  expect(refused).toBeGreaterThan(100);
});
