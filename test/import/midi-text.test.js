// MIDI text events (issue 40, items 1 and 12): names are UTF-8 when their bytes are valid UTF-8
// (music21, MuseScore and most current tools), else Latin-1, and control characters (a C
// string's NUL, terminal escapes) never reach a title, a part name, a section or the terminal.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import midiFile from 'midi-file';
import { importNotationFile } from '../../local-server/src/import/import-file.js';
import { runCli } from '../../local-server/src/cli.js';

const PPQ = 480;
const edge = (name) => fileURLToPath(new URL(`../fixtures/midi-edge/${name}`, import.meta.url));
// midi-file writes a string one byte per character: these are the file's bytes as written.
const bytesOf = (text) => String.fromCharCode(...new TextEncoder().encode(text));
const meta = (type, text) => ({ deltaTime: 0, type, meta: true, text });
const end = { deltaTime: 4 * PPQ, type: 'endOfTrack', meta: true };
const noteOn = (channel) => ({ deltaTime: 0, type: 'noteOn', channel, noteNumber: 60, velocity: 90 });

let dir;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tutti-midi-text-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test("music21's UTF-8 'B♭ Clarinet' with its NUL terminator reads as B♭ Clarinet", async () => {
  const { score } = await importNotationFile(edge('b-flat-clarinet.mid'));
  expect(score.parts).toEqual([
    { id: 'b-clarinet', name: 'B♭ Clarinet', osc: '/b-clarinet' },
    { id: 'flute', name: 'Flute', osc: '/flute' },
  ]);
  expect(score.meter).toEqual([{ bar: 1, beats: 3, unit: 4 }]);
  expect(score.tempo).toEqual([expect.objectContaining({ bpm: 90 })]);
});

test('Latin-1 names stay Latin-1; escapes and NULs are stripped from titles, parts, sections and the printout', async () => {
  const file = path.join(dir, 'hostile.mid');
  const tracks = [
    [
      meta('trackName', `Serenade\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u001b[1A\u0000`),
      { deltaTime: 0, type: 'setTempo', meta: true, microsecondsPerBeat: 600_000 },
      meta('marker', `Trio\u001b[31m\u0000`),
      { ...end, deltaTime: 8 * PPQ },
    ],
    [meta('trackName', 'Fl\u00fbte \u00e0 bec'), noteOn(0), { ...end, deltaTime: 8 * PPQ }], // Latin-1 bytes FB, E0
    [meta('trackName', 'Don\u0092t \u0085'), noteOn(3), end], // Windows' Latin-1: 92 is ’, 85 is …
    [meta('trackName', bytesOf('Violoncello\u0000')), meta('instrumentName', 'x'), noteOn(1), end],
    [meta('trackName', bytesOf('Zw\u00f6lf\u009b2J')), noteOn(2), end], // UTF-8, with an 8-bit CSI
  ];
  await writeFile(file, Buffer.from(midiFile.writeMidi({ header: { format: 1, numTracks: tracks.length, ticksPerBeat: PPQ }, tracks })));
  const { score } = await importNotationFile(file);
  expect(score.title).toBe('Serenade');
  expect(score.id).toBe('serenade');
  expect(score.parts.map((p) => p.name)).toEqual(['Flûte à bec', 'Don’t …', 'Violoncello', 'Zwölf']);
  expect(score.sections).toEqual([{ at: { bar: 1, beat: 1 }, mark: 'Trio' }]);

  const out = [];
  const code = await runCli(['import', file, '--out', path.join(dir, 'hostile.score.json')], {
    out: (s) => out.push(s),
    err: (s) => out.push(s),
  });
  expect(code).toBe(0);
  const printed = out.join('\n');
  expect(printed).toContain('Serenade');
  // eslint-disable-next-line no-control-regex -- what must not be printed
  expect(printed).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
});
