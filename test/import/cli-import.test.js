// `tutti import` on the command line: where it writes, --force, --help, --merge, and bad input
// (not XML, a zip without a score, a truncated MIDI file, a 50 MB file, 10,000 measures): one
// clear message, exit 1, never a stack trace.
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync, strToU8 } from 'fflate';
import { runCli } from '../../local-server/src/cli.js';

const corpus = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'corpus');
let dir;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tutti-import-cli-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function cli(...args) {
  const out = [];
  const err = [];
  const code = await runCli(['import', ...args], { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const expectOneClearError = (result, pattern) => {
  expect(result.code).toBe(1);
  expect(result.err).toMatch(/^tutti import: /);
  expect(result.err).toMatch(pattern);
  expect(result.err).not.toMatch(/\n\s+at /); // no stack trace
  expect(result.out).toBe('');
};

test('writes FILE.score.json next to the input, prints what it found, never overwrites without --force', async () => {
  const input = path.join(dir, 'volta.musicxml');
  await copyFile(path.join(corpus, 'musicxml', 'test_repeat_volta_simple.musicxml'), input);
  const first = await cli(input);
  expect(first.code).toBe(0);
  expect(first.out).toMatch(/Bars: +4 played \(3 written; repeats and endings played out\)/);
  expect(first.out).toMatch(/Time signatures: 2\/4 \(bar 1\)/);
  expect(first.out).toMatch(/Parts: +Piano \/piano/);
  expect(first.out).toMatch(/! measure 1 has no tempo .*120/);
  const written = JSON.parse(await readFile(path.join(dir, 'volta.score.json'), 'utf8'));
  expect(written.bars).toBe(4);
  expect(written.cues).toEqual([]);
  const again = await cli(input);
  expectOneClearError(again, /volta\.score\.json exists; pass --force/);
  expect((await cli(input, '--force')).code).toBe(0);
  const elsewhere = path.join(dir, 'other.score.json');
  expect((await cli(input, '--out', elsewhere)).code).toBe(0);
  expect(JSON.parse(await readFile(elsewhere, 'utf8')).bars).toBe(4);
});

test('--help documents every option; bad arguments exit 2', async () => {
  const help = await cli('--help');
  expect(help.code).toBe(0);
  for (const option of ['--out PATH', '--force', '--merge FILE', '--help']) expect(help.out).toContain(option);
  expect((await cli()).code).toBe(2);
  expect((await cli('a.musicxml', '--bogus')).code).toBe(2);
  expect((await cli('a.musicxml', '--out')).code).toBe(2);
});

test('bad input: one clear message and exit 1', async () => {
  const notXml = path.join(dir, 'notes.musicxml');
  await writeFile(notXml, 'this is not XML at all');
  expectOneClearError(await cli(notXml), /notes\.musicxml is not well-formed XML \(line 1/);

  const html = path.join(dir, 'page.xml');
  await writeFile(html, '<html><body>hi</body></html>');
  expectOneClearError(await cli(html), /XML but not a MusicXML score/);

  const zip = path.join(dir, 'empty.mxl');
  await writeFile(zip, zipSync({ 'readme.txt': strToU8('no score here') }));
  expectOneClearError(await cli(zip), /zip archive without a MusicXML score/);

  // A small archive that would unpack to 40 MB: refused before anything is inflated.
  const bomb = path.join(dir, 'bomb.mxl');
  await writeFile(
    bomb,
    zipSync({
      'META-INF/container.xml': strToU8('<container><rootfiles><rootfile full-path="score.xml"/></rootfiles></container>'),
      'score.xml': new Uint8Array(40 * 1024 * 1024).fill(0x20),
    }),
  );
  expectOneClearError(await cli(bomb), /bomb\.mxl: score\.xml unpacks to 40 MB, more than the 32 MB Tutti reads/);

  const notZip = path.join(dir, 'broken.mxl');
  await writeFile(notZip, 'PK\x03\x04 and then nothing');
  expectOneClearError(await cli(notZip), /not a readable zip archive/);

  const midi = await readFile(path.join(corpus, 'midi', 'TheEntertainer.mid'));
  const truncated = path.join(dir, 'cut.mid');
  await writeFile(truncated, midi.subarray(0, Math.floor(midi.length / 2)));
  expectOneClearError(await cli(truncated), /cut\.mid is not a readable MIDI file .*cut short or damaged/);

  const huge = path.join(dir, 'huge.musicxml');
  await writeFile(huge, Buffer.alloc(50 * 1024 * 1024, 0x20));
  expectOneClearError(await cli(huge), /huge\.musicxml is 50\.0 MB; Tutti imports notation files up to 32 MB/);

  const measures = Array.from(
    { length: 10_000 },
    (_, i) => `<measure number="${i + 1}"><note><rest/><duration>4</duration></note></measure>`,
  ).join('');
  const long = path.join(dir, 'long.musicxml');
  await writeFile(
    long,
    `<?xml version="1.0"?><score-partwise><part-list><score-part id="P1"><part-name>A</part-name></score-part></part-list><part id="P1">${measures}</part></score-partwise>`,
  );
  expectOneClearError(await cli(long), /long\.musicxml has 10,000 measures; Tutti imports up to 5,000/);

  const other = path.join(dir, 'song.txt');
  await writeFile(other, 'hello');
  expectOneClearError(await cli(other), /imports MusicXML .* and MIDI/);

  expectOneClearError(await cli(path.join(dir, 'missing.musicxml')), /cannot read .*no such file/);

  const volta = path.join(dir, 'v.musicxml');
  await copyFile(path.join(corpus, 'musicxml', 'test_repeat_volta_simple.musicxml'), volta);
  expectOneClearError(
    await cli(volta, '--out', path.join(dir, 'no-such-folder', 'v.score.json')),
    /cannot write .*no such folder; choose another place with --out/,
  );
}, 60_000);

test('repeats played out past the bar limit: a clear message', async () => {
  // 3,000 measures inside a repeat played 4 times = 12,000 bars.
  const measures = Array.from({ length: 3_000 }, (_, i) => {
    const start = i === 0 ? '<barline location="left"><repeat direction="forward"/></barline>' : '';
    const end = i === 2_999 ? '<barline location="right"><repeat direction="backward" times="4"/></barline>' : '';
    return `<measure number="${i + 1}">${start}<note><pitch><step>C</step><octave>4</octave></pitch><duration>4</duration></note>${end}</measure>`;
  }).join('');
  const file = path.join(dir, 'loop.musicxml');
  await writeFile(
    file,
    `<?xml version="1.0"?><score-partwise><part-list><score-part id="P1"><part-name>A</part-name></score-part></part-list><part id="P1"><measure number="0"><attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time></attributes></measure>${measures}</part></score-partwise>`,
  );
  expectOneClearError(await cli(file), /more than 10,000 bars/);
}, 60_000);

test('--merge keeps cues at the same printed bars on the new time map and reports the ones whose bar is gone', async () => {
  // The first edition: a plain 3-bar score with cues (made 3/4 below).
  const existing = path.join(dir, 'piece.score.json');
  await writeFile(
    existing,
    JSON.stringify({
      format: 'tutti-score/1',
      id: 'piece',
      title: 'My piece',
      bars: 3,
      meter: [{ bar: 1, beats: 2, unit: 4 }],
      tempo: [{ at: { bar: 1 }, bpm: 90 }],
      parts: [{ id: 'pno', name: 'Piano', osc: '/pno' }],
      cues: [
        { at: { bar: 1, beat: 2 }, label: 'opening', view: { text: 'one' } },
        { at: { bar: 3 }, label: 'second ending', osc: { part: 'pno', address: '/go' } },
        { at: { bar: 2 }, label: 'gone', view: { text: 'two' } },
      ],
    }),
  );
  // The revised edition has a first ending (m2) and a second ending (m3): printed bar 2 sounds
  // once, at performance bar 2; printed 3 at performance bar 4; printed 1 first at bar 1.
  const input = path.join(dir, 'volta.musicxml');
  await copyFile(path.join(corpus, 'musicxml', 'test_repeat_volta_simple.musicxml'), input);
  const out = path.join(dir, 'merged.score.json');
  // The first edition was in 3/4 and one cue sits on beat 3, which the new 2/4 bar lacks.
  const first = JSON.parse(await readFile(existing, 'utf8'));
  first.meter = [{ bar: 1, beats: 3, unit: 4 }];
  first.cues[2].at = { bar: 2, beat: 3 };
  await writeFile(existing, JSON.stringify(first));
  const result = await cli(input, '--merge', existing, '--out', out);
  expect(result.code).toBe(0);
  expect(result.out).toMatch(/Merged .*piece\.score\.json: 2 cue\(s\) kept at their printed bars, 1 left out/);
  expect(result.out).toMatch(/cue "gone" at bar 2, beat 3: printed bar 2 has no beat 3 any more \(2 beats\)/);
  const merged = JSON.parse(await readFile(out, 'utf8'));
  expect(merged).toMatchObject({ id: 'piece', title: 'My piece', bars: 4, meter: [{ bar: 1, beats: 2, unit: 4 }] });
  expect(merged.cues.map((c) => [c.label, c.at])).toEqual([
    ['opening', { bar: 1, beat: 2 }],
    ['second ending', { bar: 4, beat: 1 }],
  ]);
  // The new file's Piano is the score's Piano (same name): its id pno is kept, no second piano.
  expect(merged.parts.map((p) => p.id)).toEqual(['pno']);
  const check = await runCli(['validate', out], { out: () => {}, err: () => {} });
  expect(check).toBe(0);
});
