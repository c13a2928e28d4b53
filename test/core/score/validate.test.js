import { describe, expect, test } from '@jest/globals';
import { SCORE_LIMITS, formatProblems, validateScore } from '#core/score/validate.js';

/** A small valid score; each test breaks one thing. */
function base() {
  return {
    format: 'tutti-score/1',
    id: 'test',
    title: 'Test piece',
    bars: 32,
    meter: [
      { bar: 1, beats: 4, unit: 4 },
      { bar: 17, beats: 3, unit: 4 },
    ],
    tempo: [
      { at: { bar: 1 }, bpm: 96 },
      { at: { bar: 9, beat: 1 }, bpm: 96, to: 132, until: { bar: 13 } },
    ],
    sections: [{ at: { bar: 1 }, mark: 'A', name: 'Opening' }],
    parts: [{ id: 'vln', name: 'Violin', osc: '/vln' }],
    assets: [
      { id: 'bell', kind: 'audio', src: 'media/bell.wav', bytes: 100 },
      { id: 'poster', kind: 'image', src: 'media/poster.png' },
    ],
    view: { text: 'Welcome', color: '#101820' },
    cues: [
      { at: { bar: 5, beat: 3 }, osc: { part: 'vln', address: '/cue', args: [1, 2.5, 'go', true] } },
      { at: { bar: 1, beat: 1 }, view: { text: 'Hello', instruction: 'Listen', color: '#1a1a2e', image: 'poster', data: { a: { b: 1 } } } },
      { at: { bar: 5 }, audio: { asset: 'bell' }, label: 'bell' },
    ],
  };
}

function problemsOf(score) {
  const result = validateScore(score);
  expect(result.ok).toBe(false);
  expect(result.score).toBeUndefined();
  return result.problems.map((p) => `${p.path}: ${p.message}`);
}

describe('validateScore: valid scores', () => {
  test('accepts a full score and normalizes it', () => {
    const input = base();
    const frozen = JSON.stringify(input);
    const result = validateScore(input);
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
    const { score } = result;
    // Input untouched, output a copy.
    expect(JSON.stringify(input)).toBe(frozen);
    expect(score.view).not.toBe(input.view);
    // Explicit beats everywhere.
    expect(score.tempo[0].at).toEqual({ bar: 1, beat: 1 });
    expect(score.tempo[1].until).toEqual({ bar: 13, beat: 1 });
    expect(score.sections[0].at).toEqual({ bar: 1, beat: 1 });
    // Cues sorted by position; defaults filled in.
    expect(score.cues.map((c) => [c.at.bar, c.at.beat])).toEqual([
      [1, 1],
      [5, 1],
      [5, 3],
    ]);
    expect(score.cues[1].audio).toEqual({ asset: 'bell', gain: 1 });
    expect(score.cues[1].label).toBe('bell');
    expect(score.cues[2].osc).toEqual({ part: 'vln', address: '/cue', args: [1, 2.5, 'go', true] });
    expect(score.cues[0].view.data).toEqual({ a: { b: 1 } });
    expect(score.cues[0].view.data).not.toBe(input.cues[1].view.data);
    expect(score.assets[0].bytes).toBe(100);
    expect(score.format).toBe('tutti-score/1');
  });

  test('a minimal score gets empty lists and an empty view', () => {
    const { ok, score } = validateScore({
      format: 'tutti-score/1',
      id: 'min',
      title: 'M',
      bars: 1,
      meter: [{ bar: 1, beats: 1, unit: 4 }],
      tempo: [{ at: { bar: 1 }, bpm: 60 }],
    });
    expect(ok).toBe(true);
    expect(score).toEqual({
      format: 'tutti-score/1',
      id: 'min',
      title: 'M',
      bars: 1,
      meter: [{ bar: 1, beats: 1, unit: 4 }],
      tempo: [{ at: { bar: 1, beat: 1 }, bpm: 60 }],
      sections: [],
      parts: [],
      assets: [],
      view: {},
      cues: [],
      prompts: [],
      reactions: [],
    });
  });

  test('cues at the same position keep their file order (stable sort)', () => {
    const score = base();
    score.cues = ['a', 'b', 'c', 'd'].map((text, i) => ({ at: { bar: i % 2 ? 2 : 3 }, view: { text } }));
    const { score: out } = validateScore(score);
    expect(out.cues.map((c) => c.view.text)).toEqual(['b', 'd', 'a', 'c']);
  });

  test('a cue view may remove keys with null (merge patch); "$schema" is accepted and dropped', () => {
    const score = { $schema: './score.schema.json', ...base() };
    score.cues.push({ at: { bar: 6 }, view: { image: null, text: null, data: { a: null } } });
    const result = validateScore(score);
    expect(result.problems).toEqual([]);
    expect(result.score).not.toHaveProperty('$schema');
    expect(result.score.cues.at(-1).view).toEqual({ image: null, text: null, data: { a: null } });
  });

  test('beats follow the meter: beat 4 exists in 4/4 bars, not in 3/4 bars', () => {
    const score = base();
    score.cues = [{ at: { bar: 16, beat: 4 }, view: { text: 'ok' } }];
    expect(validateScore(score).ok).toBe(true);
    score.cues = [{ at: { bar: 17, beat: 4 }, view: { text: 'no' } }];
    expect(problemsOf(score)).toEqual(['cues[0].at.beat: beat 4 does not exist in bar 17, which has 3 beats (3/4)']);
  });
});

describe('validateScore: problems', () => {
  test("the brief's example: a bar past the end", () => {
    const score = base();
    score.bars = 180;
    score.cues.push({ at: { bar: 212 }, view: { text: 'late' } });
    expect(problemsOf(score)).toEqual(['cues[3].at.bar: bar 212 is past the last bar (180)']);
  });

  test('unknown keys are errors, with a did-you-mean', () => {
    const score = base();
    score.tempi = score.tempo;
    score.cues[0].veiw = {};
    score.meter[0].beat = 4;
    score.cues[1].view.colour = '#fff';
    score.parts[0].zzz = 1;
    expect(problemsOf(score)).toEqual([
      "(root): unknown key 'tempi' (did you mean 'tempo'?)",
      "meter[0]: unknown key 'beat' (did you mean 'beats'?)",
      "parts[0]: unknown key 'zzz' (allowed here: id, name, osc)",
      "cues[0]: unknown key 'veiw' (did you mean 'view'?)",
      "cues[1].view: unknown key 'colour' (did you mean 'color'?)",
    ]);
  });

  test('reports every problem at once, in file order', () => {
    const score = base();
    score.title = '';
    score.meter[1].unit = 3;
    score.tempo[1].until = { bar: 8 };
    score.cues[0].at.bar = 99;
    score.cues[2].osc = { address: '/x' };
    const problems = problemsOf(score);
    expect(problems).toEqual([
      'title: the title is empty; write at least 1 character',
      'meter[1].unit: the note value of a beat must be one of 1, 2, 4, 8, 16, 32, got 3',
      'tempo[1].until: the gradual change must end after it starts (bar 9, beat 1), not at bar 8, beat 1',
      'cues[0].at.bar: bar 99 is past the last bar (32)',
      'cues[2]: a cue carries exactly one of view, audio or osc, this one has audio and osc; split it into separate cues at the same position',
    ]);
  });

  test('required fields', () => {
    expect(problemsOf({})).toEqual([
      'format: missing: a score starts with "format": "tutti-score/1"',
      'id: missing: give the score a short id such as "my-piece" (lowercase letters, digits, dashes)',
      'title: missing: give the piece a title (1 to 200 characters)',
      'bars: missing: the total number of bars (a whole number from 1 to 10000)',
      'meter: missing: time signatures such as { "bar": 1, "beats": 4, "unit": 4 }',
      'tempo: missing: tempo marks such as { "at": { "bar": 1 }, "bpm": 96 }',
    ]);
  });

  test.each([
    [{ format: 'tutti-score/2' }, 'format: "tutti-score/2" is not a format this version reads; expected "tutti-score/1"'],
    [
      { id: 'My Piece' },
      'id: "My Piece" is not a valid score id; use 1 to 64 lowercase letters, digits and dashes, starting with a letter or digit (e.g. "my-piece")',
    ],
    [{ title: '   ' }, 'title: the title is empty; write at least 1 character'],
    [{ title: 'x'.repeat(201) }, 'title: the title is 201 characters long; the limit is 200'],
    [{ composer: 7 }, 'composer: expected the composer (text in double quotes), got 7'],
    [
      { bars: '48' },
      'bars: expected the total number of bars, a whole number from 1 to 10000, got "48" (text; write numbers without quotes)',
    ],
    [{ bars: 10001 }, 'bars: expected the total number of bars, a whole number from 1 to 10000, got 10001'],
    [{ meter: [] }, 'meter: the list is empty: time signatures such as { "bar": 1, "beats": 4, "unit": 4 }'],
    [{ tempo: {} }, 'tempo: expected a list [ ... ] of tempo marks such as { "at": { "bar": 1 }, "bpm": 96 }, got an object'],
    [{ view: 'hello' }, 'view: expected a view such as { "text": "Welcome", "color": "#101820" }, got "hello" (text)'],
    [{ view: { text: null } }, 'view.text: the initial view has nothing to remove; leave out "text" instead of writing null'],
  ])('top level %j', (patch, expected) => {
    expect(problemsOf({ ...base(), ...patch })).toEqual([expected]);
  });

  test('meter rules', () => {
    const score = base();
    score.meter = [
      { bar: 2, beats: 0, unit: 4 },
      { bar: 9, beats: 33, unit: 4 },
      { bar: 9, beats: 3, unit: 4 },
      { bar: 40, beats: 3, unit: 4 },
      { beats: 3 },
      'x',
    ];
    expect(problemsOf(score)).toEqual([
      'meter[0].bar: the first time signature must start at bar 1, not bar 2',
      'meter[0].beats: expected the number of beats per bar, a whole number from 1 to 32, got 0',
      'meter[1].beats: expected the number of beats per bar, a whole number from 1 to 32, got 33',
      "meter[2].bar: bar 9 must come after the previous time signature's bar (9); list time signatures in order, one per bar at most",
      'meter[3].bar: expected the bar where this time signature starts, a whole number from 1 to 32, got 40',
      'meter[4].bar: missing: the bar where this time signature starts',
      'meter[4].unit: missing: the note value of a beat (1, 2, 4, 8, 16, 32)',
      'meter[5]: expected a time signature such as { "bar": 1, "beats": 4, "unit": 4 } (an object { ... }), got "x" (text)',
    ]);
  });

  test('tempo rules', () => {
    const score = base();
    score.tempo = [
      { at: { bar: 1, beat: 2 }, bpm: 9 },
      { at: { bar: 9 }, bpm: 96, to: 132, until: { bar: 15 } },
      { at: { bar: 13 }, bpm: 132, to: 401 },
      { at: { bar: 12 }, bpm: 80, until: { bar: 14 } },
      { at: { bar: 20 }, bpm: 80, to: 60, until: { bar: 20 } },
      { bpm: 60 },
    ];
    expect(problemsOf(score)).toEqual([
      'tempo[0].at: the first tempo mark must be at bar 1, beat 1, not bar 1, beat 2',
      'tempo[0].bpm: expected a tempo in beats per minute, a number from 10 to 400, got 9',
      'tempo[1].until: the gradual change runs to bar 15, beat 1, past the next tempo mark at bar 13, beat 1',
      'tempo[2]: has \'to\' but no \'until\': a gradual tempo change needs both, e.g. "to": 132, "until": { "bar": 13 }',
      'tempo[2].to: expected the tempo reached at "until", in beats per minute, a number from 10 to 400, got 401',
      "tempo[3]: has 'until' but no 'to': a gradual tempo change needs the tempo it reaches, e.g. \"to\": 132",
      'tempo[3].at: bar 12, beat 1 must come after the previous tempo mark (bar 13, beat 1); list tempo marks in order',
      'tempo[4].until: the gradual change must end after it starts (bar 20, beat 1), not at bar 20, beat 1',
      'tempo[5].at: missing: where this tempo starts, e.g. { "bar": 1 }',
    ]);
  });

  test('a gradual change may end exactly at the next tempo mark', () => {
    const score = base();
    score.tempo.push({ at: { bar: 13 }, bpm: 132 });
    expect(validateScore(score).ok).toBe(true);
  });

  test('positions', () => {
    const score = base();
    score.cues = [
      { at: { bar: 0 }, view: { text: 'a' } },
      { at: { bar: 2.5 }, view: { text: 'b' } },
      { at: { bar: 2, beat: 0 }, view: { text: 'c' } },
      { at: { bar: 2, beat: '1' }, view: { text: 'd' } },
      { at: { beat: 1 }, view: { text: 'e' } },
      { at: 5, view: { text: 'f' } },
      { at: { bar: 2, tick: 3 }, view: { text: 'g' } },
      { view: { text: 'h' } },
    ];
    expect(problemsOf(score)).toEqual([
      'cues[0].at.bar: bar 0 does not exist; bars are numbered from 1',
      'cues[1].at.bar: expected a bar number (a whole number from 1 to 32), got 2.5',
      'cues[2].at.beat: beat 0 does not exist; beats are numbered from 1',
      'cues[3].at.beat: expected a beat number (a whole number from 1), got "1" (text; write numbers without quotes)',
      'cues[4].at.bar: missing: a position needs a bar number (1 to 32)',
      'cues[5].at: expected a position such as { "bar": 5, "beat": 1 }, got 5',
      "cues[6].at: unknown key 'tick' (allowed here: bar, beat)",
      'cues[7].at: missing: where the cue happens, e.g. { "bar": 5, "beat": 3 }',
    ]);
  });

  test('when the meter is broken, beats are still checked against the largest meter', () => {
    const score = base();
    score.meter[0].unit = 5;
    score.cues = [
      { at: { bar: 2, beat: 33 }, view: { text: 'x' } },
      { at: { bar: 2, beat: 5 }, view: { text: 'y' } },
    ];
    expect(problemsOf(score)).toEqual([
      'meter[0].unit: the note value of a beat must be one of 1, 2, 4, 8, 16, 32, got 5',
      'cues[0].at.beat: beat 33 does not exist; no bar has more than 32 beats',
    ]);
  });

  test('sections', () => {
    const score = base();
    score.sections = [
      { at: { bar: 9 }, mark: 'B' },
      { at: { bar: 1 }, mark: 'A', name: '' },
      { at: { bar: 12 }, mark: 'TOOLONGMARK' },
      { at: { bar: 13 } },
    ];
    expect(problemsOf(score)).toEqual([
      'sections[1].at: bar 1, beat 1 must come after the previous section (bar 9, beat 1); list sections in order',
      'sections[1].name: the section name is empty; write at least 1 character',
      'sections[2].mark: the rehearsal mark is 11 characters long; the limit is 8',
      'sections[3].mark: missing: a rehearsal mark such as "A" (1 to 8 characters)',
    ]);
  });

  test('parts: ids and OSC prefixes', () => {
    const score = base();
    score.parts = [
      { id: 'vln', osc: '/vln' },
      { id: 'vln', osc: '/vln2' },
      { id: 'vc', osc: 'vc' },
      { id: 'va', osc: '/va/' },
      { id: 'db', osc: '/double bass' },
      { id: 'x y', osc: '/a//b' },
      { id: 'pf', osc: '/p*' },
      { id: 'hn' },
    ];
    score.cues = [];
    expect(problemsOf(score)).toEqual([
      'parts[1].id: "vln" is already the id of parts[0]; part ids must be unique',
      'parts[2].osc: "vc" is not a valid OSC address prefix: it must start with "/"',
      'parts[3].osc: "/va/" is not a valid OSC address prefix: it must not end with "/"',
      'parts[4].osc: "/double bass" is not a valid OSC address prefix: it contains a space',
      'parts[5].id: "x y" is not a valid part id; use 1 to 64 letters, digits, "-" or "_", starting with a letter or digit',
      'parts[5].osc: "/a//b" is not a valid OSC address prefix: it has an empty part ("//")',
      'parts[6].osc: "/p*" is not a valid OSC address prefix: OSC addresses use printable ASCII except # * , ? [ ] { }',
      'parts[7].osc: missing: the OSC address prefix of this part, such as "/vln"',
    ]);
  });

  test('assets: kinds, ids and safe relative paths', () => {
    const score = base();
    score.cues = [];
    score.assets = [
      { id: 'a', kind: 'audio', src: '../secret.wav' },
      { id: 'b', kind: 'audio', src: '/etc/passwd.wav' },
      { id: 'c', kind: 'audio', src: 'https://example.com/x.wav' },
      { id: 'd', kind: 'audio', src: 'media\\x.wav' },
      { id: 'e', kind: 'audio', src: 'C:/x.wav' },
      { id: 'f', kind: 'audio', src: 'media/x.txt' },
      { id: 'g', kind: 'video', src: 'media/x.mp4' },
      { id: 'h', kind: 'image', src: 'media/x.png', bytes: -1 },
      { id: 'i', kind: 'image', src: 'media/x?.png' },
      { id: 'j', kind: 'audio', src: 'media/./x.wav' },
      { id: 'k', kind: 'audio' },
    ];
    expect(problemsOf(score)).toEqual([
      'assets[0].src: "../secret.wav" is not a usable file path: it must not go up a folder with ".."',
      'assets[1].src: "/etc/passwd.wav" is not a usable file path: it must be relative to the score file, not start with "/"',
      'assets[2].src: "https://example.com/x.wav" is not a usable file path: it must be a file path next to the score, not a URL',
      'assets[3].src: "media\\\\x.wav" is not a usable file path: use "/" between folders, not "\\"',
      'assets[4].src: "C:/x.wav" is not a usable file path: it must be a file path next to the score, not a URL',
      'assets[5].src: "media/x.txt" is not a usable file path: an audio file should end in .wav, .mp3, .ogg, .oga, .opus, .m4a, .aac, .flac, .webm',
      'assets[6].kind: the kind must be "audio" or "image", got "video" (text)',
      'assets[7].bytes: expected the file size in bytes, a whole number from 0 to 9007199254740991, got -1',
      'assets[8].src: "media/x?.png" is not a usable file path: it must not contain ?, #, % or control characters',
      'assets[9].src: "media/./x.wav" is not a usable file path: it has an empty or "." folder name',
      'assets[10].src: missing: the file path relative to the score, e.g. "media/bell.wav"',
    ]);
  });

  test('cue references: unknown, wrong kind, did-you-mean', () => {
    const score = base();
    score.cues = [
      { at: { bar: 1 }, audio: { asset: 'gong' } },
      { at: { bar: 1 }, audio: { asset: 'poster' } },
      { at: { bar: 1 }, view: { image: 'bell' } },
      { at: { bar: 1 }, view: { image: 'postr' } },
      { at: { bar: 1 }, osc: { part: 'vla', address: '/cue' } },
      { at: { bar: 1 }, osc: { part: 'cello', address: '/cue' } },
    ];
    expect(problemsOf(score)).toEqual([
      'cues[0].audio.asset: there is no audio asset with id "gong" (known: bell)',
      'cues[1].audio.asset: "poster" is an image asset (assets[1]), not an audio asset',
      'cues[2].view.image: "bell" is an audio asset (assets[0]), not an image asset',
      'cues[3].view.image: there is no image asset with id "postr" (did you mean "poster"?)',
      'cues[4].osc.part: there is no part with id "vla" (did you mean "vln"?)',
      'cues[5].osc.part: there is no part with id "cello" (known: vln)',
    ]);
  });

  test('cue contents', () => {
    const score = base();
    score.cues = [
      { at: { bar: 1 } },
      { at: { bar: 1 }, view: {} },
      { at: { bar: 1 }, view: { color: 'red', text: 'x'.repeat(2001), instruction: 5 } },
      { at: { bar: 1 }, view: { data: [1, 2] } },
      { at: { bar: 1 }, audio: { asset: 'bell', gain: 2.5 } },
      { at: { bar: 1 }, osc: { address: 'cue', args: 'go' } },
      { at: { bar: 1 }, osc: { address: '/cue', args: [null, [1], 'x'.repeat(1001)] } },
      { at: { bar: 1 }, osc: { address: '/cue', args: new Array(33).fill(1) } },
      { at: { bar: 1 }, label: 3, view: { text: 'x' } },
      { at: { bar: 1 }, osc: { address: '/cue', args: [2147483647, -2147483648, 2147483648, -3e9, 1e20, 0.5] } },
    ];
    expect(problemsOf(score)).toEqual([
      'cues[0]: a cue needs one of view, audio or osc',
      'cues[1].view: the view is empty; give at least one of text, instruction, color, image, data or score',
      'cues[2].view.text: the text is 2001 characters long; the limit is 2000',
      'cues[2].view.instruction: expected the instruction (text in double quotes), got 5',
      'cues[2].view.color: expected a colour written #rgb or #rrggbb (e.g. "#1a1a2e"), got "red" (text)',
      'cues[3].view.data: expected an object { ... } of free-form values, got a list of 2 items',
      'cues[4].audio.gain: expected a gain (1 = as recorded), a number from 0 to 2, got 2.5',
      'cues[5].osc.address: "cue" is not a valid OSC address: it must start with "/"',
      'cues[5].osc.args: expected a list [ ... ] of OSC arguments, got "go" (text)',
      'cues[6].osc.args[0]: OSC arguments can be numbers, text or true/false, got null',
      'cues[6].osc.args[1]: OSC arguments can be numbers, text or true/false, got a list of 1 item',
      'cues[6].osc.args[2]: the text is longer than 1000 characters',
      'cues[7].osc.args: 33 arguments is more than the limit of 32',
      'cues[8].label: expected the label (text in double quotes), got 3',
      'cues[9].osc.args[2]: 2147483648 does not fit an OSC integer (32 bits: -2147483648 to 2147483647); send it as text ("2147483648")',
      'cues[9].osc.args[3]: -3000000000 does not fit an OSC integer (32 bits: -2147483648 to 2147483647); send it as text ("-3000000000")',
      'cues[9].osc.args[4]: 100000000000000000000 does not fit an OSC integer (32 bits: -2147483648 to 2147483647); send it as text ("100000000000000000000")',
    ]);
  });

  test('view data: JSON only, bounded, no __proto__', () => {
    const score = base();
    let deep = {};
    const root = deep;
    for (let i = 0; i < 40; i++) deep = deep.next = {};
    const polluted = JSON.parse('{"__proto__": {"polluted": true}}');
    score.cues = [
      { at: { bar: 1 }, view: { data: { when: new Date(0) } } },
      { at: { bar: 1 }, view: { data: { n: NaN, f: () => 1 } } },
      { at: { bar: 1 }, view: { data: root } },
      { at: { bar: 1 }, view: { data: { big: 'x'.repeat(70_000) } } },
      { at: { bar: 1 }, view: { data: { 'odd key': [undefined] } } },
      { at: { bar: 1 }, view: { data: polluted } },
    ];
    expect(problemsOf(score)).toEqual([
      'cues[0].view.data.when: view data holds JSON values only (text, numbers, true/false, null, lists, objects), got an object',
      'cues[1].view.data.n: view data holds JSON values only (text, numbers, true/false, null, lists, objects), got NaN',
      `cues[2].view.data.${new Array(33).fill('next').join('.')}: nested more than 32 levels deep`,
      'cues[3].view.data: the data is 69 KB as JSON; the limit is 64 KB per view',
      'cues[4].view.data["odd key"][0]: view data holds JSON values only (text, numbers, true/false, null, lists, objects), got nothing',
      'cues[5].view.data: the key "__proto__" is not allowed in view data',
    ]);
    expect({}.polluted).toBeUndefined();
  });

  test('a huge number of problems is capped with a summary line', () => {
    const score = base();
    score.cues = Array.from({ length: 500 }, () => ({ at: { bar: 999 }, view: { text: 'x' } }));
    const { ok, problems } = validateScore(score);
    expect(ok).toBe(false);
    expect(problems).toHaveLength(SCORE_LIMITS.problems + 1);
    expect(problems.at(-1)).toEqual({ path: '(root)', message: '400 more problems not shown; fix the ones above first' });
  });

  test('oversized lists are refused without walking them', () => {
    const score = base();
    score.cues = new Array(SCORE_LIMITS.cues + 1);
    expect(problemsOf(score)).toEqual([`cues: ${SCORE_LIMITS.cues + 1} entries is more than the limit of ${SCORE_LIMITS.cues}`]);
  });

  test.each([
    [undefined, 'nothing'],
    [null, 'null'],
    [42, '42'],
    ['score', '"score" (text)'],
    [[1], 'a list of 1 item'],
    [true, 'true'],
  ])('a score that is not an object: %p', (value, described) => {
    expect(problemsOf(value)).toEqual([`(root): a score must be a JSON object { "format": "tutti-score/1", ... }, got ${described}`]);
  });

  test('inputs JSON cannot produce do not make it throw', () => {
    const hostile = base();
    Object.defineProperty(hostile, 'title', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(problemsOf(hostile)).toEqual(['(root): the score could not be read: boom']);
    const proxy = new Proxy(base(), {
      ownKeys() {
        throw new Error('no keys');
      },
    });
    expect(validateScore(proxy).ok).toBe(false);
    const cyclic = base();
    cyclic.view.data = { self: null };
    cyclic.view.data.self = cyclic.view.data;
    expect(problemsOf(cyclic)[0]).toMatch(/^view\.data(\.self)+: nested more than 32 levels deep$/);
  });
});

describe('formatProblems', () => {
  test('one "path: message" line per problem', () => {
    expect(
      formatProblems([
        { path: 'cues[3].at.bar', message: 'bar 212 is past the last bar (180)' },
        { path: '(root)', message: 'x' },
      ]),
    ).toBe('cues[3].at.bar: bar 212 is past the last bar (180)\n(root): x');
    expect(formatProblems([])).toBe('');
  });
});
