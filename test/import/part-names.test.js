// Part names (issue 40, items 2 and 3): an empty <part-name> falls back to the abbreviation, the
// instrument's name, then the General MIDI program; two parts of one name are told apart (the
// file's own "Violin I/II", else "Violin 1/2"), the summary says so, and --merge keeps the ids a
// score already has.
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importNotationBytes } from '../../local-server/src/import/import-file.js';
import { runCli } from '../../local-server/src/cli.js';

const corpus = fileURLToPath(new URL('../fixtures/corpus/musicxml/', import.meta.url));
const MOZART = 'Mozart_String_Quartet_in_G_K._387_1st_Mvmnt_excerpt.musicxml';

/** A one-bar MusicXML score whose part-list holds `scoreParts` (P1, P2, … in order). */
function scoreWith(scoreParts) {
  const ids = scoreParts.map((_, i) => `P${i + 1}`);
  const list = scoreParts.map((inner, i) => `<score-part id="${ids[i]}">${inner}</score-part>`).join('');
  const bar =
    '<measure number="1"><attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time></attributes><note><pitch><step>C</step><octave>4</octave></pitch><duration>4</duration><type>whole</type></note></measure>';
  const parts = ids.map((id) => `<part id="${id}">${bar}</part>`).join('');
  return new TextEncoder().encode(
    `<?xml version="1.0"?><score-partwise version="3.1"><part-list>${list}</part-list>${parts}</score-partwise>`,
  );
}

let dir;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tutti-part-names-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function cli(...args) {
  const out = [];
  const code = await runCli(['import', ...args], { out: (s) => out.push(s), err: (s) => out.push(s) });
  return { code, out: out.join('\n') };
}

test('an empty <part-name> falls back to the abbreviation, the instrument, the General MIDI program, the id', () => {
  const bytes = scoreWith([
    '<part-name/><part-abbreviation>Fl.</part-abbreviation><score-instrument id="P1-I1"><instrument-name>Flute</instrument-name></score-instrument>',
    '<part-name></part-name><score-instrument id="P2-I1"><instrument-name>Oboe</instrument-name></score-instrument>',
    '<part-name> </part-name><midi-instrument id="P3-I1"><midi-channel>3</midi-channel><midi-program>43</midi-program></midi-instrument>',
    '<part-name/><midi-instrument id="P4-I1"><midi-channel>10</midi-channel><midi-program>1</midi-program></midi-instrument>',
    '<part-name/>',
  ]);
  const { score } = importNotationBytes(bytes, 'unnamed.musicxml');
  expect(score.parts.map((p) => p.name)).toEqual(['Fl.', 'Oboe', 'Cello', 'Percussion', 'P5']);
});

test('two parts called Violin become Violin 1 and Violin 2 (Mozart K. 387), and the summary says so', async () => {
  const input = path.join(dir, MOZART);
  await copyFile(path.join(corpus, MOZART), input);
  const result = await cli(input);
  expect(result.code).toBe(0);
  expect(result.out).toMatch(/Parts: +Violin 1 \/violin-1 · Violin 2 \/violin-2 · Viola \/viola · Violoncello \/violoncello/);
  expect(result.out).toMatch(/! \(parts\) 2 parts are called Violin: named Violin 1, Violin 2 to tell them apart/);
});

test("the file's own distinction wins where every part of the name has one: Violin I, Violin II", () => {
  const violin = (display) =>
    `<part-name>Violin</part-name><part-name-display><display-text>${display}</display-text></part-name-display><score-instrument id="x"><instrument-name>Violin</instrument-name></score-instrument>`;
  const { score, warnings } = importNotationBytes(
    scoreWith([violin('Violin I'), violin('Violin II'), '<part-name>Viola</part-name>']),
    'q.musicxml',
  );
  expect(score.parts).toEqual([
    { id: 'violin-i', name: 'Violin I', osc: '/violin-i' },
    { id: 'violin-ii', name: 'Violin II', osc: '/violin-ii' },
    { id: 'viola', name: 'Viola', osc: '/viola' },
  ]);
  expect(warnings).toContainEqual({
    measure: '(parts)',
    message: '2 parts are called Violin: named Violin I, Violin II to tell them apart',
  });
  // Where only one of them has its own, both are numbered.
  const half = importNotationBytes(scoreWith([violin('Violin I'), '<part-name>Violin</part-name>']), 'h.musicxml');
  expect(half.score.parts.map((p) => p.name)).toEqual(['Violin 1', 'Violin 2']);
});

test('--merge keeps the ids an earlier import gave two Violins (violin, violin-2), now named Violin 1 and 2', async () => {
  const input = path.join(dir, MOZART);
  await copyFile(path.join(corpus, MOZART), input);
  const existing = path.join(dir, 'k387.score.json');
  // As the import wrote it before duplicates were numbered, with a cue sent to the second violin.
  await writeFile(
    existing,
    JSON.stringify({
      format: 'tutti-score/1',
      id: 'k387',
      title: 'K. 387',
      bars: 13,
      meter: [{ bar: 1, beats: 4, unit: 4 }],
      tempo: [{ at: { bar: 1 }, bpm: 100 }],
      parts: [
        { id: 'violin', name: 'Violin', osc: '/violin' },
        { id: 'violin-2', name: 'Violin', osc: '/violin-2' },
        { id: 'viola', name: 'Viola', osc: '/viola' },
        { id: 'violoncello', name: 'Violoncello', osc: '/violoncello' },
      ],
      cues: [{ at: { bar: 2 }, label: 'second violin', osc: { part: 'violin-2', address: '/go' } }],
    }),
  );
  const out = path.join(dir, 'merged.score.json');
  expect((await cli(input, '--merge', existing, '--out', out)).code).toBe(0);
  const merged = JSON.parse(await readFile(out, 'utf8'));
  expect(merged.parts.map((p) => [p.id, p.name, p.osc])).toEqual([
    ['violin', 'Violin 1', '/violin'],
    ['violin-2', 'Violin 2', '/violin-2'],
    ['viola', 'Viola', '/viola'],
    ['violoncello', 'Violoncello', '/violoncello'],
  ]);
  expect(merged.cues[0].osc.part).toBe('violin-2');
  // Merged again into itself: nothing moves.
  const again = path.join(dir, 'again.score.json');
  expect((await cli(input, '--merge', out, '--out', again)).code).toBe(0);
  expect(JSON.parse(await readFile(again, 'utf8')).parts).toEqual(merged.parts);
});
