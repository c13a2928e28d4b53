// Decoding what musicians' tools send to OSC-in and echo to the console's Test ping (docs/reference/osc.md#address-space)
// . node-osc's decoder reads the OSC 1.0 core types only (i f s b, and
// T F N), so a packet with any other argument failed as a whole: a tempo sent as a 64-bit float
// (`d`: Java's oscP5, Rust, Go and Python libraries with doubles, `oscsend … d`) or a bar as a
// 64-bit integer (`h`) was dropped without a word. This reads every type the OSC 1.0 spec lists
// as standard or as a common nonstandard one, with the same result shape as node-osc's decode.

/**
 * @typedef {{ oscType: 'message', address: string, args: Array<{ type: string, value: unknown }> }} OscMessage
 * @typedef {{ oscType: 'bundle', timetag: number, elements: OscPacket[] }} OscBundle
 * @typedef {OscMessage | OscBundle} OscPacket
 */

/** Seconds from the NTP epoch (1900) to the Unix epoch (1970). */
const NTP_TO_UNIX_S = 2_208_988_800;
const BUNDLE_TAG = '#bundle';
const MAX_DEPTH = 8;

/** A malformed packet: its message says what is wrong, for the operator's log. */
export class OscDecodeError extends Error {}

const fail = (/** @type {string} */ message) => {
  throw new OscDecodeError(message);
};

/**
 * @param {Buffer} bytes
 * @param {number} offset
 * @param {number} size
 * @param {string} what
 */
function need(bytes, offset, size, what) {
  if (offset + size > bytes.length) fail(`${what} runs past the end of the packet`);
}

/** An OSC-string: ASCII up to a NUL, padded to 4 bytes. @returns {[string, number]} the text and the offset after it */
function readString(/** @type {Buffer} */ bytes, /** @type {number} */ offset, /** @type {string} */ what) {
  const end = bytes.indexOf(0, offset);
  if (end < 0) fail(`${what} has no terminating NUL`);
  const next = (end + 4) & ~3;
  if (next > bytes.length) fail(`${what} is not padded to 4 bytes`);
  return [bytes.toString('utf8', offset, end), next];
}

/** An NTP timetag as Unix seconds (1: "immediately" stays 1, as node-osc has it). */
function readTimetag(/** @type {Buffer} */ bytes, /** @type {number} */ offset) {
  const seconds = bytes.readUInt32BE(offset);
  const fraction = bytes.readUInt32BE(offset + 4);
  if (seconds === 0 && fraction === 1) return 1;
  return seconds - NTP_TO_UNIX_S + fraction / 2 ** 32;
}

/**
 * One argument of type `tag` at `offset`. @returns {[unknown, number]} its value and the offset after it
 * @param {Buffer} bytes
 * @param {number} offset
 * @param {string} tag
 */
function readArgument(bytes, offset, tag) {
  const fixed = (/** @type {number} */ size) => need(bytes, offset, size, `argument '${tag}'`);
  switch (tag) {
    case 'i':
      fixed(4);
      return [bytes.readInt32BE(offset), offset + 4];
    case 'f':
      fixed(4);
      return [bytes.readFloatBE(offset), offset + 4];
    case 'd':
      fixed(8);
      return [bytes.readDoubleBE(offset), offset + 8];
    case 'h': {
      fixed(8);
      const big = bytes.readBigInt64BE(offset);
      // A bar or a count is far inside 2^53: keep a number; a huge one stays a BigInt, which no
      // command takes as an integer (its error names the argument).
      const small = big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER);
      return [small ? Number(big) : big, offset + 8];
    }
    case 't':
      fixed(8);
      return [readTimetag(bytes, offset), offset + 8];
    case 'c': {
      fixed(4);
      const code = bytes.readUInt32BE(offset);
      if (code > 0x10ffff) fail(`a char (${code}) is not a Unicode code point`);
      return [String.fromCodePoint(code), offset + 4];
    }
    case 'r':
    case 'm':
      fixed(4);
      return [tag === 'r' ? bytes.readUInt32BE(offset) : Uint8Array.from(bytes.subarray(offset, offset + 4)), offset + 4];
    case 's':
    case 'S':
      return readString(bytes, offset, `argument '${tag}'`);
    case 'b': {
      fixed(4);
      const size = bytes.readInt32BE(offset);
      if (size < 0) fail(`a blob's size is negative`);
      need(bytes, offset + 4, size, 'a blob');
      return [Buffer.from(bytes.subarray(offset + 4, offset + 4 + size)), offset + 4 + ((size + 3) & ~3)];
    }
    case 'T':
      return [true, offset];
    case 'F':
      return [false, offset];
    case 'N':
    case 'I':
      return [null, offset];
    default:
      return fail(
        tag === '[' || tag === ']' ? 'arrays ([ ]) are not read' : `type tag '${tag}' is not an OSC type (i f s b h t d S c r m T F N I)`,
      );
  }
}

/** @returns {OscMessage} */
function readMessage(/** @type {Buffer} */ bytes) {
  const [address, tagsAt] = readString(bytes, 0, 'the address');
  if (!address.startsWith('/')) fail('the address does not start with "/"');
  // OSC 1.0 lets old senders leave the type tags out: then there are no arguments Tutti can read.
  if (tagsAt === bytes.length) return { oscType: 'message', address, args: [] };
  const [tags, argsAt] = readString(bytes, tagsAt, 'the type tags');
  if (!tags.startsWith(',')) fail('the type tag string does not start with ","');
  /** @type {OscMessage['args']} */
  const args = [];
  let offset = argsAt;
  for (const tag of tags.slice(1)) {
    const [value, next] = readArgument(bytes, offset, tag);
    args.push({ type: tag, value });
    offset = next;
  }
  return { oscType: 'message', address, args };
}

/** @returns {OscBundle} */
function readBundle(/** @type {Buffer} */ bytes, /** @type {number} */ depth) {
  if (depth >= MAX_DEPTH) fail(`bundles nested deeper than ${MAX_DEPTH}`);
  need(bytes, 8, 8, 'the bundle timetag');
  const timetag = readTimetag(bytes, 8);
  /** @type {OscPacket[]} */
  const elements = [];
  for (let offset = 16; offset < bytes.length;) {
    need(bytes, offset, 4, "a bundle element's size");
    const size = bytes.readInt32BE(offset);
    if (size <= 0 || size % 4 !== 0) fail(`a bundle element's size (${size}) is not a positive multiple of 4`);
    need(bytes, offset + 4, size, 'a bundle element');
    elements.push(readPacket(bytes.subarray(offset + 4, offset + 4 + size), depth + 1));
    offset += 4 + size;
  }
  return { oscType: 'bundle', timetag, elements };
}

/** @returns {OscPacket} */
function readPacket(/** @type {Buffer} */ bytes, /** @type {number} */ depth) {
  if (bytes.length === 0) fail('the packet is empty');
  if (bytes.length % 4 !== 0) fail(`the packet's size (${bytes.length}) is not a multiple of 4`);
  if (bytes[0] === 0x23 && bytes.toString('latin1', 0, 8) === `${BUNDLE_TAG}\0`) return readBundle(bytes, depth);
  return readMessage(bytes);
}

/**
 * Decode one OSC packet (a message, or a bundle of them nested at most 8 deep).
 * @param {Buffer} bytes
 * @returns {OscPacket}
 * @throws {OscDecodeError} saying what is malformed
 */
export function decodeOsc(bytes) {
  return readPacket(bytes, 0);
}
