// MIDI details no corpus file has: a format 0 file with marker events (→ sections), a time
// signature change, tempo events inside a beat, and a time signature arriving mid-bar. The file is
// written with midi-file's writer (the same library the importer reads with). Then files made to
// test MIDI readers (test/fixtures/midi-edge/SOURCES.md).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import midiFile from 'midi-file';
import { importNotationFile } from '../../local-server/src/import/import-file.js';

const PPQ = 480;
const tempo = (bpm) => ({ type: 'setTempo', meta: true, microsecondsPerBeat: Math.round(60_000_000 / bpm) });
const sig = (numerator, denominator) => ({ type: 'timeSignature', meta: true, numerator, denominator, metronome: 24, thirtyseconds: 8 });
const marker = (text) => ({ type: 'marker', meta: true, text });
const note = (on) => ({ type: on ? 'noteOn' : 'noteOff', channel: 0, noteNumber: 60, velocity: on ? 90 : 0 });

/** Events with absolute ticks → a track with delta times. */
function track(events) {
  let last = 0;
  return events
    .sort((a, b) => a.tick - b.tick)
    .map(({ tick, ...e }) => {
      const out = { deltaTime: tick - last, ...e };
      last = tick;
      return out;
    });
}

let dir;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tutti-midi-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function write(name, tracks, format = 0) {
  const file = path.join(dir, name);
  await writeFile(file, Buffer.from(midiFile.writeMidi({ header: { format, numTracks: tracks.length, ticksPerBeat: PPQ }, tracks })));
  return file;
}

test('format 0: markers become sections, a 3/4 change is metered, tempo events placed on their beats', async () => {
  const bar44 = 4 * PPQ;
  const file = await write('markers.mid', [
    track([
      { tick: 0, type: 'trackName', meta: true, text: 'Marker test' },
      { tick: 0, ...sig(4, 4) },
      { tick: 0, ...tempo(100) },
      { tick: 0, ...marker('Intro') },
      { tick: 2 * bar44, ...sig(3, 4) },
      { tick: 2 * bar44, ...marker('A') },
      { tick: 2 * bar44, ...tempo(150) },
      { tick: 2 * bar44 + PPQ, ...tempo(75) }, // bar 3, beat 2
      { tick: 2 * bar44 + 3 * 3 * PPQ, ...marker('Coda') }, // bar 6
      { tick: 0, ...note(true) },
      { tick: 2 * bar44 + 4 * 3 * PPQ, ...note(false) }, // to the end of bar 6
      { tick: 2 * bar44 + 4 * 3 * PPQ, type: 'endOfTrack', meta: true },
    ]),
  ]);
  const { score, warnings } = await importNotationFile(file);
  expect(score.title).toBe('Marker test');
  expect(score.bars).toBe(6);
  expect(score.meter).toEqual([
    { bar: 1, beats: 4, unit: 4 },
    { bar: 3, beats: 3, unit: 4 },
  ]);
  expect(score.tempo).toEqual([
    { at: { bar: 1, beat: 1 }, bpm: 100 },
    { at: { bar: 3, beat: 1 }, bpm: 150 },
    { at: { bar: 3, beat: 2 }, bpm: 75 },
  ]);
  expect(score.sections).toEqual([
    { at: { bar: 1, beat: 1 }, mark: 'Intro' },
    { at: { bar: 3, beat: 1 }, mark: 'A' },
    { at: { bar: 6, beat: 1 }, mark: 'Coda' },
  ]);
  expect(score.parts).toEqual([{ id: 'channel-1', name: 'Channel 1', osc: '/channel-1' }]);
  expect(warnings).toEqual([]);
});

test('two tempo events inside one beat: that beat lasts what its two halves last; a mid-bar time signature no pickup explains is a warning', async () => {
  const file = await write(
    'inside.mid',
    [
      track([
        { tick: 0, ...sig(4, 4) },
        { tick: 0, ...tempo(120) },
        { tick: PPQ + PPQ / 2, ...tempo(60) }, // half-way through beat 2: 0.25 s + 0.5 s = 0.75 s → 80 bpm
        { tick: 2 * PPQ, ...tempo(90) },
        { tick: 4 * PPQ, type: 'marker', meta: true, text: 'A' }, // on the barline from 0: no pickup
        { tick: 6 * PPQ, ...sig(2, 4) }, // half-way through bar 2
        { tick: 10 * PPQ, type: 'endOfTrack', meta: true },
      ]),
      track([
        { tick: 0, type: 'trackName', meta: true, text: 'Flute' },
        { tick: 0, ...note(true) },
        { tick: 10 * PPQ, ...note(false) },
        { tick: 10 * PPQ, type: 'endOfTrack', meta: true },
      ]),
    ],
    1,
  );
  const { score, warnings } = await importNotationFile(file);
  expect(score.tempo).toEqual([
    { at: { bar: 1, beat: 1 }, bpm: 120 },
    { at: { bar: 1, beat: 2 }, bpm: 80 },
    { at: { bar: 1, beat: 3 }, bpm: 90 },
  ]);
  expect(score.meter).toEqual([
    { bar: 1, beats: 4, unit: 4 },
    { bar: 2, beats: 2, unit: 4 },
  ]);
  expect(score.bars).toBe(4); // 4/4, the cut 2/4, then 2/4 twice
  expect(warnings).toEqual([{ measure: '2', message: 'is cut short by a time signature change inside it' }]);
  expect(score.parts.map((p) => p.name)).toEqual(['Flute']);
});

test('tracks without names are parts named by their General MIDI instrument, as MuseScore 3 writes them', async () => {
  const program = (channel, programNumber) => ({ type: 'programChange', channel, programNumber });
  const on = (channel) => ({ type: 'noteOn', channel, noteNumber: 60, velocity: 90 });
  const end = (tick) => ({ tick, type: 'endOfTrack', meta: true });
  const file = await write(
    'unnamed.mid',
    [
      track([{ tick: 0, ...sig(4, 4) }, { tick: 0, ...tempo(90) }, end(4 * PPQ)]),
      // A violin whose pizzicato channel comes after: the first note's channel names it.
      track([{ tick: 0, ...program(0, 40) }, { tick: 0, ...program(1, 45) }, { tick: 0, ...on(0) }, { tick: PPQ, ...on(1) }, end(4 * PPQ)]),
      // A piano's left hand: its channel's program is set in the right hand's track only.
      track([{ tick: 0, ...program(2, 0) }, { tick: 0, ...on(2) }, end(4 * PPQ)]),
      track([{ tick: PPQ, ...on(2) }, end(4 * PPQ)]),
      track([{ tick: 0, ...program(9, 0) }, { tick: 0, ...on(9) }, end(4 * PPQ)]), // channel 10
      track([{ tick: 0, ...on(3) }, end(4 * PPQ)]), // no program anywhere
      track([
        { tick: 0, type: 'trackName', meta: true, text: 'Solo Flute' },
        { tick: 0, ...program(4, 40) },
        { tick: 0, ...on(4) },
        end(4 * PPQ),
      ]),
    ],
    1,
  );
  const { score } = await importNotationFile(file);
  expect(score.parts.map((p) => [p.name, p.osc])).toEqual([
    ['Violin', '/violin'],
    ['Acoustic Grand Piano 1', '/acoustic-grand-piano-1'], // one name twice: numbered
    ['Acoustic Grand Piano 2', '/acoustic-grand-piano-2'],
    ['Percussion', '/percussion'],
    ['Track 6', '/track-6'],
    ['Solo Flute', '/solo-flute'], // a name the file gives wins
  ]);

  const zero = await write('channels.mid', [
    track([
      { tick: 0, ...tempo(90) },
      { tick: 0, ...program(0, 73) },
      { tick: 0, ...program(1, 42) },
      { tick: 0, ...on(0) },
      { tick: 0, ...on(1) },
      { tick: 0, ...on(5) },
      end(4 * PPQ),
    ]),
  ]);
  expect((await importNotationFile(zero)).score.parts.map((p) => p.name)).toEqual(['Flute', 'Cello', 'Channel 6']);
});

test("LilyPond's track names: its context names without its colons, and its own '\\new:' as no name", async () => {
  const named = (text, channel) =>
    track([
      { tick: 0, type: 'trackName', meta: true, text },
      { tick: 0, type: 'noteOn', channel, noteNumber: 60, velocity: 90 },
      { tick: 4 * PPQ, type: 'endOfTrack', meta: true },
    ]);
  const file = await write(
    'lilypond-names.mid',
    [
      track([
        { tick: 0, ...tempo(100) },
        { tick: 4 * PPQ, type: 'endOfTrack', meta: true },
      ]),
      named('horn:', 0),
      named('horn:melody', 1),
      named('\\new:', 2),
    ],
    1,
  );
  expect((await importNotationFile(file)).score.parts.map((p) => p.name)).toEqual(['horn', 'horn: melody', 'Track 4']);
});

test('a conductor track named after a file path (MMA names it after its input as given) gives the file name as the title', async () => {
  const titled = async (text) => {
    const file = await write('titled.mid', [
      track([
        { tick: 0, type: 'trackName', meta: true, text },
        { tick: 0, ...tempo(100) },
        { tick: 0, ...note(true) },
        { tick: 4 * PPQ, ...note(false) },
        { tick: 4 * PPQ, type: 'endOfTrack', meta: true },
      ]),
    ]);
    return (await importNotationFile(file)).score.title;
  };
  expect(await titled('/home/ann/charts/blue-bossa')).toBe('blue-bossa');
  expect(await titled('C:\\Users\\ann\\charts\\blue-bossa')).toBe('blue-bossa');
  expect(await titled('AC/DC medley')).toBe('AC/DC medley'); // a slash inside a title is kept
});

describe("files made to test MIDI readers (test/fixtures/midi-edge, jazz-soft's test-midi-files)", () => {
  const edge = (name) => fileURLToPath(new URL(`../fixtures/midi-edge/${name}`, import.meta.url));

  test('a chunk that is not a track is skipped, as the SMF spec says; so is a stray byte at the end', async () => {
    for (const name of ['test-non-midi-track.mid', 'test-corrupt-file-extra-byte.mid']) {
      const { score, written } = await importNotationFile(edge(name));
      // A C-major scale of eight quarter notes: two bars of 4/4.
      expect([name, written, score.bars]).toEqual([name, 2, 2]);
    }
  });

  test('a live-only system message and a text file named .mid are refused, each with its reason', async () => {
    await expect(importNotationFile(edge('test-illegal-message-f1-xx.mid'))).rejects.toThrow(
      /holds a MIDI message a file may not \(status byte 0xF1: a live-only system message\)/,
    );
    await expect(importNotationFile(edge('test-not-a-midi-file.mid'))).rejects.toThrow(/is not a MIDI file: it does not start with "MThd"/);
  });
});
