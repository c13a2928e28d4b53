// MusicXML details the corpus does not have: D.C./D.S./Coda/Fine marked for playback with
// <sound>, the same written only as words (a warning), accel. words between two metronome marks,
// a dotted beat unit, a composite time signature, and a UTF-16 file.
import { importNotationBytes } from '../../local-server/src/import/import-file.js';

const direction = (inner, sound = '') => `<direction><direction-type>${inner}</direction-type>${sound}</direction>`;
const metronome = (unit, perMinute, dots = 0) =>
  direction(`<metronome><beat-unit>${unit}</beat-unit>${'<beat-unit-dot/>'.repeat(dots)}<per-minute>${perMinute}</per-minute></metronome>`);
const note = (duration) => `<note><pitch><step>C</step><octave>4</octave></pitch><duration>${duration}</duration></note>`;

/** A one-part score; each measure is [number, inner XML, extra attributes]. */
function score(measures, { time = '<time><beats>4</beats><beat-type>4</beat-type></time>', divisions = 1 } = {}) {
  const body = measures
    .map(
      ([n, inner], i) =>
        `<measure number="${n}">${i === 0 ? `<attributes><divisions>${divisions}</divisions>${time}</attributes>` : ''}${inner}</measure>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><score-partwise version="4.0"><work><work-title>Test</work-title></work><identification><creator type="composer">A. Composer</creator></identification><part-list><score-part id="P1"><part-name>Flûte à bec</part-name></score-part></part-list><part id="P1">${body}</part></score-partwise>`;
}
const read = (xml, name = 'test.musicxml') => importNotationBytes(new TextEncoder().encode(xml), name);

test('D.S. al Coda and Fine marked with <sound> are played out', () => {
  const { score: s, warnings } = read(
    score([
      ['1', metronome('quarter', 100) + note(4)],
      ['2', direction('<segno/>', '<sound segno="s1"/>') + note(4)],
      ['3', note(4) + direction('<words>To Coda</words>', '<sound tocoda="c1"/>')],
      ['4', note(4) + direction('<words>D.S. al Coda</words>', '<sound dalsegno="s1"/>')],
      ['5', direction('<coda/>', '<sound coda="c1"/>') + note(4)],
    ]),
  );
  // 1 2 3 4 | 2 3 → coda 5
  expect(s.bars).toBe(7);
  expect(s.printedBars).toEqual([
    { bar: 1, number: 1 },
    { bar: 5, number: 2, pass: 2 },
    { bar: 7, number: 5 },
  ]);
  expect(s).toMatchObject({
    title: 'Test',
    composer: 'A. Composer',
    parts: [{ id: 'flute-a-bec', name: 'Flûte à bec', osc: '/flute-a-bec' }],
  });
  expect(warnings).toEqual([]);
});

test('D.C. al Fine with <sound dacapo> and <sound fine>; a D.C. written only as words is a warning naming its measure', () => {
  const played = read(
    score([
      ['1', metronome('quarter', 100) + note(4)],
      ['2', note(4) + direction('<words>Fine</words>', '<sound fine="yes"/>')],
      ['3', note(4) + direction('<words>D.C. al Fine</words>', '<sound dacapo="yes"/>')],
    ]),
  );
  expect(played.score.bars).toBe(5); // 1 2 3 1 2
  const sections = read(
    score([
      ['1', direction('<rehearsal>A</rehearsal>') + metronome('quarter', 100) + note(4)],
      ['2', direction('<rehearsal>B</rehearsal>') + note(4) + direction('<words>Fine</words>', '<sound fine="yes"/>')],
      ['3', note(4) + direction('<words>D.C. al Fine</words>', '<sound dacapo="yes"/>')],
    ]),
  );
  // After the D.C. the music is in A again, then B: both are sections again.
  expect(sections.score.sections.map((s) => [s.mark, s.at.bar])).toEqual([
    ['A', 1],
    ['B', 2],
    ['A', 4],
    ['B', 5],
  ]);
  const wordsOnly = read(
    score([
      ['1', metronome('quarter', 100) + note(4)],
      ['2', note(4) + direction('<words>D.C. al Fine</words>')],
    ]),
  );
  expect(wordsOnly.score.bars).toBe(2);
  expect(wordsOnly.warnings).toEqual([
    { measure: '2', message: expect.stringMatching(/^says "D\.C\. al Fine" without a playback jump .*not played out/) },
  ]);
});

test('accel. between two metronome marks is a gradual change; dotted quarter in 6/8 is counted in eighths', () => {
  const { score: s } = read(
    score(
      [
        ['1', metronome('quarter', 60, 1) + note(6)],
        ['2', note(3) + direction('<words>accel.</words>') + note(3)],
        ['3', note(6)],
        ['4', metronome('quarter', 90, 1) + note(6)],
      ],
      { time: '<time><beats>6</beats><beat-type>8</beat-type></time>', divisions: 2 },
    ),
  );
  expect(s.meter).toEqual([{ bar: 1, beats: 6, unit: 8 }]);
  expect(s.tempo).toEqual([
    { at: { bar: 1, beat: 1 }, bpm: 180 },
    { at: { bar: 2, beat: 4 }, bpm: 180, to: 270, until: { bar: 4, beat: 1 } },
    { at: { bar: 4, beat: 1 }, bpm: 270 },
  ]);
});

test('a composite time signature 3+2/8 is five eighths; a UTF-16 file reads the same', () => {
  const xml = score([['1', metronome('eighth', 200) + note(5)]], {
    time: '<time><beats>3+2</beats><beat-type>8</beat-type></time>',
    divisions: 2,
  });
  const { score: s } = read(xml);
  expect(s.meter).toEqual([{ bar: 1, beats: 5, unit: 8 }]);
  expect(s.tempo).toEqual([{ at: { bar: 1, beat: 1 }, bpm: 200 }]);
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml.replace('UTF-8', 'UTF-16'), 'utf16le')]);
  expect(importNotationBytes(new Uint8Array(utf16), 'wide.musicxml').score).toEqual(s);
});

test('a fast 6/8 (dotted quarter = 140, 420 eighths a minute) stays 6/8, counted in two dotted-quarter beats', () => {
  const { score: s, warnings } = read(
    score(
      [
        ['1', metronome('quarter', 140, 1) + note(6)],
        ['2', note(3) + direction('<rehearsal>B</rehearsal>') + note(3)],
      ],
      { time: '<time><beats>6</beats><beat-type>8</beat-type></time>', divisions: 2 },
    ),
  );
  // The printed 6/8 is kept; the bar is counted in 2 (docs/reference/meter.md).
  expect(s.meter).toEqual([{ bar: 1, beats: 6, unit: 8, count: 2 }]);
  expect(s.tempo).toEqual([{ at: { bar: 1, beat: 1 }, bpm: 140 }]);
  expect(s.sections).toEqual([{ at: { bar: 2, beat: 2 }, mark: 'B' }]); // the 4th eighth is the 2nd dotted beat
  expect(warnings).toEqual([
    {
      measure: '1',
      message: expect.stringMatching(/^is in 6\/8 at 420 beats a minute.*counted in 2 dotted beats a bar, still shown as 6\/8/),
    },
  ]);
});

test('blank lines before the XML declaration (as in real files) are read; a later error keeps its line', () => {
  const xml = score([['1', metronome('quarter', 100) + note(4)]]);
  expect(read(`\n\n  ${xml}`).score.bars).toBe(1);
  const broken = `\n\n${xml.replace('<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0" encoding="UTF-8"?>\n')}`.replace(
    '</part>',
    '</prat>',
  );
  expect(() => read(broken)).toThrow(/not well-formed XML \(line 4,/);
});

test('<divisions> changing in the middle of a bar counts from where it stands (as in the MusicXML test suite 03c)', () => {
  const divisions = (n) => `<attributes><divisions>${n}</divisions></attributes>`;
  const { score: s, warnings } = read(
    score([
      ['1', metronome('quarter', 100) + note(1) + note(1) + divisions(8) + note(8) + note(8)],
      ['2', note(16) + divisions(38) + note(76)],
    ]),
  );
  expect(warnings).toEqual([]);
  expect(s.bars).toBe(2);
  expect(s.meter).toEqual([{ bar: 1, beats: 4, unit: 4 }]);
});

test('a bar of rests shorter than its time signature (a bar split at a repeat, as in Bach chorales) lasts what it holds; a bar of whole-bar rests keeps its signature', () => {
  const rest = (duration) => `<note><rest/><duration>${duration}</duration></note>`;
  const { score: s } = read(
    score([
      ['1', metronome('quarter', 100) + note(4)],
      ['2', rest(4) + rest(4)], // two whole-bar rests without a <backup>: still one 4/4 bar
      ['3', note(3)],
      ['3a', rest(1)], // the bar's last beat, written after a repeat barline
      ['4', note(4)],
    ]),
  );
  expect(s.bars).toBe(5);
  expect(s.meter).toEqual([
    { bar: 1, beats: 4, unit: 4 },
    { bar: 3, beats: 3, unit: 4 },
    { bar: 4, beats: 1, unit: 4 },
    { bar: 5, beats: 4, unit: 4 },
  ]);
});

test("a forward repeat on a bar's right barline (as in Beethoven's op. 18 in music21's corpus) starts the next bar", () => {
  const barline = (location, direction) => `<barline location="${location}"><repeat direction="${direction}"/></barline>`;
  const { score: s } = read(
    score([
      ['1', metronome('quarter', 100) + note(4) + barline('right', 'forward')],
      ['2', note(4)],
      ['3', note(4) + barline('right', 'backward')],
    ]),
  );
  // 1 |: 2 3 :| → 1 2 3 2 3
  expect(s.bars).toBe(5);
  expect(s.printedBars).toEqual([
    { bar: 1, number: 1 },
    { bar: 4, number: 2, pass: 2 },
  ]);
});

test('rests running past the time signature after the last note (a slip in one voice) do not lengthen the bar; notes past it still do', () => {
  const rest = (duration) => `<note><rest/><duration>${duration}</duration></note>`;
  const { score: s, warnings } = read(
    score(
      [
        ['1', metronome('quarter', 100) + note(2)],
        ['2', note(1) + note(1) + rest(2)], // 2/4 with a half rest too many, as in a viola part of Beethoven's op. 18 no. 1
        ['3', note(2) + note(1)], // a real 3/4 bar
      ],
      { time: '<time><beats>2</beats><beat-type>4</beat-type></time>' },
    ),
  );
  expect(s.meter).toEqual([
    { bar: 1, beats: 2, unit: 4 },
    { bar: 3, beats: 3, unit: 4 },
  ]);
  expect(warnings.map((w) => w.measure)).toEqual(['3']);
});
