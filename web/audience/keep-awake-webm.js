// Builds the keep-awake video (docs/explanation/browser-differences.md#screen-on-service-worker-plain-http): a 16×16 black WebM, two 1 s
// frames and a silent Opus audio track, 2 s, under 1 KB. The page plays it muted and inline where
// the Screen Wake Lock API is missing (any http:// LAN address is not a secure context), because a
// playing video keeps the screen on. The audio track is what the nosleep technique (NoSleep.js)
// relies on: Firefox holds its video wake lock only for media with an audio track, and WebKit is
// reported to treat video-only media as ignorable for sleep prevention. Written from scratch at
// build time, so no binary is committed and no encoder is needed: a tiny Matroska/WebM container
// around one VP8 key frame and Opus's 3-byte silence packet.

/**
 * One VP8 key frame, 16×16, all black: the "VP8 " chunk of a lossy WebP of a black canvas (WebP
 * lossy is exactly a VP8 key frame), made once with Chromium's canvas.toDataURL('image/webp').
 */
const BLACK_VP8_KEY_FRAME = Buffer.from('3001009d012a1000100007409625a400037000feefb90000', 'hex');
const SIZE = 16;
/** Milliseconds per frame; two frames make a 2 s clip. */
const FRAME_MS = 1000;
const FRAMES = 2;
/**
 * One 20 ms Opus packet of silence: TOC 0xf8 (CELT, fullband, 20 ms, mono, one frame) and the
 * two bytes of an all-silent CELT frame, the packet WebRTC stacks send for silence.
 */
const OPUS_SILENCE = Buffer.from('f8fffe', 'hex');
const OPUS_PACKET_MS = 20;
/** Opus's own 80 ms decoder pre-roll and its standard 312-sample (6.5 ms) encoder delay. */
const OPUS_PRE_SKIP = 312;

/** EBML variable-length size. */
function vintSize(n) {
  for (let len = 1; len <= 8; len++) {
    if (n < 2 ** (7 * len) - 1) {
      const out = Buffer.alloc(len);
      let v = n;
      for (let i = len - 1; i >= 0; i--) {
        out[i] = v & 0xff;
        v = Math.floor(v / 256);
      }
      out[0] |= 1 << (8 - len);
      return out;
    }
  }
  throw new RangeError(`EBML size too large: ${n}`);
}

/** An element: its ID bytes (already marker-coded), size, payload. */
function element(id, payload) {
  const idBytes = Buffer.from(
    id
      .toString(16)
      .padStart(2, '0')
      .replace(/^(.)((..)*)$/, '0$1$2'),
    'hex',
  );
  return Buffer.concat([idBytes, vintSize(payload.length), payload]);
}

function uint(id, value) {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return element(id, Buffer.from(hex, 'hex'));
}

const text = (id, value) => element(id, Buffer.from(value, 'ascii'));
const master = (id, ...children) => element(id, Buffer.concat(children));

function float64(id, value) {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(value);
  return element(id, b);
}

/** A SimpleBlock on `track` (1 video, 2 audio) at `timecode` ms from its cluster, marked as a key frame. */
function simpleBlock(track, timecode, frame) {
  const header = Buffer.alloc(4);
  header[0] = 0x80 | track; // track number as a one-byte vint
  header.writeInt16BE(timecode, 1);
  header[3] = 0x80; // key frame
  return element(0xa3, Buffer.concat([header, frame]));
}

/** The Opus identification header (RFC 7845 §5.1): mono, 48 kHz, no gain, mapping family 0. */
function opusHead() {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'ascii');
  head[8] = 1; // version
  head[9] = 1; // channels
  head.writeUInt16LE(OPUS_PRE_SKIP, 10);
  head.writeUInt32LE(48_000, 12); // input sample rate (informational)
  head.writeInt16LE(0, 16); // output gain
  head[18] = 0; // channel mapping family
  return head;
}

/**
 * The keep-awake WebM, byte-identical on every build.
 * @returns {Buffer}
 */
export function buildKeepAwakeWebm() {
  const ebmlHeader = master(
    0x1a45dfa3,
    uint(0x4286, 1), // EBMLVersion
    uint(0x42f7, 1), // EBMLReadVersion
    uint(0x42f2, 4), // EBMLMaxIDLength
    uint(0x42f3, 8), // EBMLMaxSizeLength
    text(0x4282, 'webm'), // DocType
    uint(0x4287, 2), // DocTypeVersion
    uint(0x4285, 2), // DocTypeReadVersion
  );
  const info = master(
    0x1549a966,
    uint(0x2ad7b1, 1_000_000), // TimecodeScale: 1 ms
    float64(0x4489, FRAMES * FRAME_MS), // Duration
    text(0x4d80, 'tutti'), // MuxingApp
    text(0x5741, 'tutti'), // WritingApp
  );
  const tracks = master(
    0x1654ae6b,
    master(
      0xae, // TrackEntry
      uint(0xd7, 1), // TrackNumber
      uint(0x73c5, 1), // TrackUID
      uint(0x83, 1), // TrackType: video
      uint(0x9c, 0), // FlagLacing
      text(0x86, 'V_VP8'), // CodecID
      uint(0x23e383, FRAME_MS * 1_000_000), // DefaultDuration (ns)
      master(0xe0, uint(0xb0, SIZE), uint(0xba, SIZE)), // Video: PixelWidth, PixelHeight
    ),
    master(
      0xae, // TrackEntry
      uint(0xd7, 2), // TrackNumber
      uint(0x73c5, 2), // TrackUID
      uint(0x83, 2), // TrackType: audio
      uint(0x9c, 0), // FlagLacing
      text(0x86, 'A_OPUS'), // CodecID
      element(0x63a2, opusHead()), // CodecPrivate
      uint(0x56aa, Math.round((OPUS_PRE_SKIP / 48_000) * 1e9)), // CodecDelay (ns)
      uint(0x56bb, 80_000_000), // SeekPreRoll (ns)
      master(0xe1, float64(0xb5, 48_000), uint(0x9f, 1)), // Audio: SamplingFrequency, Channels
    ),
  );
  // Blocks in time order, video and audio interleaved, as demuxers expect.
  const blocks = [
    ...Array.from({ length: FRAMES }, (_, i) => ({ at: i * FRAME_MS, track: 1, data: BLACK_VP8_KEY_FRAME })),
    ...Array.from({ length: (FRAMES * FRAME_MS) / OPUS_PACKET_MS }, (_, i) => ({ at: i * OPUS_PACKET_MS, track: 2, data: OPUS_SILENCE })),
  ]
    .sort((a, b) => a.at - b.at || a.track - b.track)
    .map((b) => simpleBlock(b.track, b.at, b.data));
  const cluster = master(0x1f43b675, uint(0xe7, 0), ...blocks); // Timecode 0
  return Buffer.concat([ebmlHeader, master(0x18538067, info, tracks, cluster)]);
}
