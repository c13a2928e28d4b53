// Generates the sample scores' media (scores/media/**) from code, so every byte is ours and the
// files can be rebuilt and checked: same code → same bytes (plain float maths, a seeded PRNG).
//
//   npx node scores/tools/generate-media.js          write the files
//   npx node scores/tools/generate-media.js --check  exit 1 if a committed file differs

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCORES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * 16-bit PCM mono WAV of `seconds` at `rate`, samples from `fn(t, i)` in -1..1.
 * @param {number} rate
 * @param {number} seconds
 * @param {(t: number, i: number) => number} fn
 * @returns {Buffer}
 */
export function renderWav(rate, seconds, fn) {
  const count = Math.round(rate * seconds);
  const out = Buffer.alloc(44 + count * 2);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + count * 2, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16); // fmt chunk size
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * 2, 28); // byte rate
  out.writeUInt16LE(2, 32); // block align
  out.writeUInt16LE(16, 34); // bits per sample
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(count * 2, 40);
  for (let i = 0; i < count; i++) {
    const v = Math.max(-1, Math.min(1, fn(i / rate, i)));
    out.writeInt16LE(Math.round(v * 32767), 44 + i * 2);
  }
  return out;
}

/** Size in bytes of a WAV rendered by renderWav, without rendering it. */
export function wavSize(rate, seconds) {
  return 44 + Math.round(rate * seconds) * 2;
}

// xorshift32: a tiny deterministic noise source (Math.random would change the files every run).
function createNoise(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x80000000 - 1;
  };
}

const TAU = 2 * Math.PI;

/** A struck bell: inharmonic partials, each decaying at its own rate, with a 4 ms attack. */
function bell(freq, seconds, level = 0.8) {
  const partials = [
    [1, 1, 3],
    [2, 0.45, 5],
    [2.76, 0.35, 7],
    [5.4, 0.15, 11],
  ];
  return (t) => {
    const attack = Math.min(1, t / 0.004);
    const fade = Math.min(1, (seconds - t) / 0.02); // no click at the end
    let v = 0;
    for (const [ratio, amp, decay] of partials) v += amp * Math.exp(-decay * t) * Math.sin(TAU * freq * ratio * t);
    return (level * attack * fade * v) / 1.95;
  };
}

/** Sea-like swell: low-passed noise under a slow sine-squared envelope, plus a soft fifth. */
function swell(seconds, seed, root) {
  const noise = createNoise(seed);
  let low = 0;
  return (t) => {
    low += 0.06 * (noise() - low);
    const env = Math.sin((Math.PI * t) / seconds) ** 2;
    const tone = 0.25 * Math.sin(TAU * root * t) + 0.18 * Math.sin(TAU * root * 1.5 * t);
    return 0.7 * env * (2.2 * low + tone);
  };
}

/** A water drop: a short sine whose pitch glides up, decaying fast. */
function drop(seconds, rate) {
  let phase = 0;
  return (t, i) => {
    const freq = 420 + 900 * Math.min(1, t / 0.12) ** 2;
    phase += (TAU * freq) / rate;
    const fade = Math.min(1, (seconds - t) / 0.02);
    return i === 0 ? 0 : 0.8 * Math.exp(-9 * t) * fade * Math.sin(phase);
  };
}

/** A drone on A: three partials breathing at different slow rates. */
function drone(seconds) {
  return (t) => {
    const edge = Math.min(1, t / 1.5, (seconds - t) / 1.5);
    const a = 0.32 * (0.75 + 0.25 * Math.sin(TAU * 0.11 * t)) * Math.sin(TAU * 110 * t);
    const e = 0.22 * (0.7 + 0.3 * Math.sin(TAU * 0.07 * t + 1)) * Math.sin(TAU * 165 * t);
    const a2 = 0.14 * (0.6 + 0.4 * Math.sin(TAU * 0.05 * t + 2)) * Math.sin(TAU * 220.5 * t);
    return edge * (a + e + a2);
  };
}

function tidalLinesSvg() {
  const lines = [];
  for (let k = 0; k < 7; k++) {
    const y = 60 + k * 40;
    let d = `M0 ${y}`;
    for (let x = 20; x <= 640; x += 20) {
      const dy = Math.round(14 * Math.sin((x / 640) * TAU * (1 + k * 0.5) + k) * 10) / 10;
      d += ` L${x} ${y + dy}`;
    }
    const shade = (0x30 + k * 0x18).toString(16);
    lines.push(`  <path d="${d}" fill="none" stroke="#${shade}a0c8" stroke-width="${2 + (k % 3)}" stroke-linecap="round"/>`);
  }
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 360" width="640" height="360">',
    '  <rect width="640" height="360" fill="#0b1d2a"/>',
    ...lines,
    '</svg>',
    '',
  ].join('\n');
}

const CD = 44_100 / 2; // 22,050 Hz: plenty for drones and chimes played on phone speakers

/**
 * Every generated file: `path` relative to scores/, `kind` and `bytes` as the score lists them,
 * and `render()` producing the content.
 * @type {ReadonlyArray<{ path: string, kind: 'audio' | 'image', bytes: number, render: () => Buffer }>}
 */
export const MEDIA = [
  wav('media/demo/bell.wav', 11_025, 0.4, () => bell(880, 0.4)),
  wav('media/tidal-lines/swell.wav', 11_025, 3, () => swell(3, 0x7d1a, 98)),
  wav('media/tidal-lines/drop.wav', 11_025, 0.6, () => drop(0.6, 11_025)),
  svg('media/tidal-lines/lines.svg', tidalLinesSvg()),
  wav('media/union-rose/rose-drone.wav', CD, 20, () => drone(20)),
  wav('media/union-rose/rose-swell.wav', CD, 16, () => swell(16, 0x51e7, 73.4)),
  wav('media/union-rose/rose-chime-1.wav', CD, 2.5, () => bell(660, 2.5, 0.7)),
  wav('media/union-rose/rose-chime-2.wav', CD, 2.5, () => bell(784, 2.5, 0.7)),
  wav('media/union-rose/rose-chime-3.wav', CD, 2.5, () => bell(988, 2.5, 0.7)),
];

// `make` builds a fresh synth per render: some synths keep state (noise, phase) between samples.
/** @returns {{ path: string, kind: 'audio', bytes: number, render: () => Buffer }} */
function wav(path, rate, seconds, make) {
  return { path, kind: 'audio', bytes: wavSize(rate, seconds), render: () => renderWav(rate, seconds, make()) };
}

/** @returns {{ path: string, kind: 'image', bytes: number, render: () => Buffer }} */
function svg(path, text) {
  const content = Buffer.from(text, 'utf8');
  return { path, kind: 'image', bytes: content.length, render: () => content };
}

/**
 * The generated file for a path relative to scores/.
 * @param {string} path
 */
export function mediaEntry(path) {
  const entry = MEDIA.find((m) => m.path === path);
  if (!entry) throw new Error(`generate-media: no generated file ${path}`);
  return entry;
}

async function main(check) {
  let stale = 0;
  for (const entry of MEDIA) {
    const target = join(SCORES_DIR, entry.path);
    const content = entry.render();
    if (content.length !== entry.bytes) throw new Error(`${entry.path}: rendered ${content.length} bytes, expected ${entry.bytes}`);
    if (check) {
      const current = await readFile(target).catch(() => null);
      if (!current || !current.equals(content)) {
        stale++;
        console.error(`differs: scores/${entry.path}`);
      }
    } else {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
      console.log(`wrote scores/${entry.path} (${content.length} bytes)`);
    }
  }
  if (check) {
    console.log(stale ? `${stale} file(s) differ; run scores/tools/generate-media.js` : `all ${MEDIA.length} media files match`);
    process.exitCode = stale ? 1 : 0;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.includes('--check')).catch((error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}
