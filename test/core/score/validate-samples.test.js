// The sample scores in scores/: each passes the JSON Schema and the validator, the broken ones
// fail with the expected problems, and the committed generated files are what the tools produce.
import { describe, expect, test } from '@jest/globals';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { formatProblems, validateScore } from '#core/score/validate.js';
import { MEDIA } from '../../../scores/tools/generate-media.js';
import { buildLoadScore, formatScoreJson } from '../../../scores/tools/generate-load-score.js';

const scoresDir = fileURLToPath(new URL('../../../scores/', import.meta.url));
const read = (name) => readFileSync(scoresDir + name, 'utf8');
const load = (name) => JSON.parse(read(name));

const schema = load('score.schema.json');
const checkSchema = new Ajv2020({ allErrors: true }).compile(schema);

const sampleNames = readdirSync(scoresDir)
  .filter((name) => name.endsWith('.score.json'))
  .sort();
const problemLines = (value) => formatProblems(validateScore(value).problems).split('\n');

describe('sample scores', () => {
  test('there are the four samples', () => {
    expect(sampleNames).toEqual(['demo.score.json', 'drawn-lines.score.json', 'tidal-lines.score.json', 'union-rose-load.score.json']);
  });

  test.each(sampleNames)('%s passes the schema and the validator', (name) => {
    const value = load(name);
    expect(checkSchema(value) ? [] : checkSchema.errors).toEqual([]);
    const result = validateScore(value);
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
  });

  test.each(sampleNames)('%s: every asset file exists and has the size the score gives', (name) => {
    for (const asset of load(name).assets ?? []) {
      expect(statSync(scoresDir + asset.src).size).toBe(asset.bytes);
    }
  });

  test('demo: about two minutes, sections, view cues and one small audio file', () => {
    const { score } = validateScore(load('demo.score.json'));
    expect(score.meter).toEqual([{ bar: 1, beats: 4, unit: 4 }]);
    expect(score.tempo).toEqual([{ at: { bar: 1, beat: 1 }, bpm: 96 }]);
    expect((score.bars * 4 * 60) / 96).toBe(120); // seconds
    expect(score.sections.length).toBeGreaterThanOrEqual(3);
    expect(score.cues.filter((c) => c.view).length).toBeGreaterThanOrEqual(5);
    expect(score.cues.some((c) => c.audio)).toBe(true);
    expect(score.assets).toHaveLength(1);
    expect(score.assets[0].bytes).toBeLessThan(16 * 1024);
  });

  test('tidal-lines: parts, accelerando and ritardando, changing meters, every kind of cue', () => {
    const { score } = validateScore(load('tidal-lines.score.json'));
    expect(score.parts.length).toBeGreaterThanOrEqual(3);
    expect(score.tempo.some((t) => t.to > t.bpm)).toBe(true);
    expect(score.tempo.some((t) => t.to < t.bpm)).toBe(true);
    const meters = score.meter.map((m) => `${m.beats}/${m.unit}`);
    expect(meters).toEqual(expect.arrayContaining(['4/4', '3/4', '5/8', '7/8']));
    for (const kind of ['view', 'audio', 'osc']) expect(score.cues.some((c) => c[kind])).toBe(true);
    expect(new Set(score.cues.filter((c) => c.osc).map((c) => c.osc.part))).toEqual(new Set(score.parts.map((p) => p.id)));
    expect(score.cues.some((c) => c.view?.image === 'lines')).toBe(true);
  });

  test('union-rose-load: ~18 KB initial view, a small view update every other beat, ~1.9 MB of media', () => {
    const { score } = validateScore(load('union-rose-load.score.json'));
    expect(score.meter).toEqual([{ bar: 1, beats: 4, unit: 4 }]);
    expect(score.tempo).toEqual([{ at: { bar: 1, beat: 1 }, bpm: 120 }]);
    expect(score.bars).toBeGreaterThanOrEqual(120); // ≥ 4 minutes: room for 2-minute load tests
    const viewBytes = Buffer.byteLength(JSON.stringify(score.view));
    expect(viewBytes).toBeGreaterThan(16_000);
    expect(viewBytes).toBeLessThan(19_000);
    expect(Object.keys(score.view.data.tiles).length).toBeGreaterThanOrEqual(300);
    const viewCues = score.cues.filter((c) => c.view);
    expect(viewCues.map((c) => `${c.at.bar}:${c.at.beat}`)).toEqual(
      Array.from({ length: score.bars * 2 }, (_, i) => `${Math.floor(i / 2) + 1}:${i % 2 ? 3 : 1}`),
    );
    for (const cue of viewCues) {
      expect(Object.keys(cue.view.data.tiles).length).toBeLessThanOrEqual(4);
      expect(Buffer.byteLength(JSON.stringify(cue.view))).toBeLessThan(400);
    }
    const total = score.assets.reduce((sum, a) => sum + a.bytes, 0);
    expect(total).toBeGreaterThan(1_800_000);
    expect(total).toBeLessThan(2_000_000);
    for (const asset of score.assets) expect(asset.bytes).toBeLessThan(1_000_000);
  });
});

describe('generated files are reproducible', () => {
  test.each(MEDIA.map((m) => [m.path, m]))('scores/%s matches generate-media.js', (path, entry) => {
    const committed = readFileSync(scoresDir + path);
    const rendered = entry.render();
    expect(rendered.length).toBe(entry.bytes);
    expect(committed.equals(rendered)).toBe(true);
    if (path.endsWith('.wav'))
      expect(rendered.subarray(0, 4).toString('ascii') + rendered.subarray(8, 12).toString('ascii')).toBe('RIFFWAVE');
  });

  test('union-rose-load.score.json matches generate-load-score.js', () => {
    expect(read('union-rose-load.score.json')).toBe(formatScoreJson(buildLoadScore()));
  });
});

describe('broken scores', () => {
  test('bad-bar', () => {
    expect(problemLines(load('broken/bad-bar.score.json'))).toEqual([
      'cues[1].at.bar: bar 20 is past the last bar (16)',
      'cues[2].at.beat: beat 4 does not exist in bar 9, which has 3 beats (3/4)',
      'cues[3].at.bar: bar 0 does not exist; bars are numbered from 1',
    ]);
  });

  test('unknown-asset', () => {
    expect(problemLines(load('broken/unknown-asset.score.json'))).toEqual([
      'cues[0].audio.asset: there is no audio asset with id "gong" (known: bell, bel)',
      'cues[1].view.image: "bell" is an audio asset (assets[0]), not an image asset',
      'cues[2].osc.part: there is no part with id "vln" (the score declares none)',
    ]);
  });

  test('five-problems reports exactly its five problems', () => {
    expect(problemLines(load('broken/five-problems.score.json'))).toEqual([
      "(root): unknown key 'composr' (did you mean 'composer'?)",
      'meter[1].unit: the note value of a beat must be one of 1, 2, 4, 8, 16, 32, got 3',
      'tempo[1]: has \'to\' but no \'until\': a gradual tempo change needs both, e.g. "to": 132, "until": { "bar": 13 }',
      'cues[0].at.bar: bar 99 is past the last bar (32)',
      'cues[2]: a cue carries exactly one of view, audio or osc, this one has view and osc; split it into separate cues at the same position',
    ]);
  });

  test('tempo-order', () => {
    expect(problemLines(load('broken/tempo-order.score.json'))).toEqual([
      'meter[0].bar: the first time signature must start at bar 1, not bar 2',
      "meter[2].bar: bar 9 must come after the previous time signature's bar (9); list time signatures in order, one per bar at most",
      'tempo[0].at: the first tempo mark must be at bar 1, beat 1, not bar 1, beat 2',
      'tempo[1].until: the gradual change runs to bar 15, beat 1, past the next tempo mark at bar 13, beat 1',
      'tempo[3].at: bar 12, beat 1 must come after the previous tempo mark (bar 13, beat 1); list tempo marks in order',
      'tempo[4].until: the gradual change must end after it starts (bar 17, beat 1), not at bar 17, beat 1',
      'sections[1].at: bar 1, beat 1 must come after the previous section (bar 9, beat 1); list sections in order',
    ]);
  });

  test('wrong-types', () => {
    expect(problemLines(load('broken/wrong-types.score.json'))).toEqual([
      'id: "Broken Types" is not a valid score id; use 1 to 64 lowercase letters, digits and dashes, starting with a letter or digit (e.g. "my-piece")',
      'title: expected the title (text in double quotes), got 42',
      'bars: expected the total number of bars, a whole number from 1 to 10000, got "16" (text; write numbers without quotes)',
      'meter: expected a list [ ... ] of time signatures such as { "bar": 1, "beats": 4, "unit": 4 }, got an object',
      'tempo[0].at.beat: expected a beat number (a whole number from 1), got 1.5',
      'tempo[0].bpm: expected a tempo in beats per minute, a number from 10 to 400, got "fast" (text)',
      'parts[0].osc: "vln/" is not a valid OSC address prefix: it must start with "/"',
      'cues[0].view.text: expected the text (text in double quotes), got a list of 2 items',
      'cues[0].view.color: expected a colour written #rgb or #rrggbb (e.g. "#1a1a2e"), got "red" (text)',
      'cues[1].audio.asset: expected the id of an audio asset (text), got 7',
      'cues[1].audio.gain: expected a gain (1 = as recorded), a number from 0 to 2, got 3',
      'cues[2].osc.args[0]: OSC arguments can be numbers, text or true/false, got null',
      'cues[2].osc.args[1]: OSC arguments can be numbers, text or true/false, got an object',
      'cues[3]: expected a cue such as { "at": { "bar": 5 }, "view": { "text": "Now" } } (an object { ... }), got "at bar 4: lights" (text)',
    ]);
  });

  test('bad-syntax is not JSON; missing-asset-file is valid until the files are checked', () => {
    expect(() => JSON.parse(read('broken/bad-syntax.score.json'))).toThrow(SyntaxError);
    expect(validateScore(load('broken/missing-asset-file.score.json')).ok).toBe(true);
  });

  test('the schema rejects the structurally broken ones and accepts what only the validator can catch', () => {
    for (const name of ['bad-bar', 'five-problems', 'wrong-types']) expect(checkSchema(load(`broken/${name}.score.json`))).toBe(false);
    // Cross-field rules (references, order, bars past the end) are the validator's job.
    for (const name of ['unknown-asset', 'tempo-order', 'missing-asset-file'])
      expect(checkSchema(load(`broken/${name}.score.json`))).toBe(true);
  });
});

describe('schema and validator agree on structure', () => {
  const base = () => load('demo.score.json');
  test.each([
    [
      'unknown top-level key',
      (s) => {
        s.tempi = [];
      },
    ],
    [
      'bars as text',
      (s) => {
        s.bars = '48';
      },
    ],
    [
      'meter unit 3',
      (s) => {
        s.meter[0].unit = 3;
      },
    ],
    [
      'bpm too high',
      (s) => {
        s.tempo[0].bpm = 401;
      },
    ],
    [
      '"to" without "until"',
      (s) => {
        s.tempo[0].to = 100;
      },
    ],
    [
      'cue with two kinds',
      (s) => {
        s.cues[0].audio = { asset: 'bell' };
      },
    ],
    [
      'cue with no kind',
      (s) => {
        delete s.cues[0].view;
      },
    ],
    [
      'empty cue view',
      (s) => {
        s.cues[0].view = {};
      },
    ],
    [
      'null in the initial view',
      (s) => {
        s.view.text = null;
      },
    ],
    [
      'bad colour',
      (s) => {
        s.cues[0].view.color = 'red';
      },
    ],
    [
      'OSC address with a space',
      (s) => {
        s.cues[1].osc.address = '/demo section';
      },
    ],
    [
      'OSC argument null',
      (s) => {
        s.cues[1].osc.args = [null];
      },
    ],
    [
      'asset path going up',
      (s) => {
        s.assets[0].src = '../bell.wav';
      },
    ],
    [
      'asset URL',
      (s) => {
        s.assets[0].src = 'https://example.com/bell.wav';
      },
    ],
    [
      'gain above 2',
      (s) => {
        s.cues.find((c) => c.audio).audio.gain = 2.5;
      },
    ],
    [
      'beat 0',
      (s) => {
        s.cues[0].at.beat = 0;
      },
    ],
  ])('both reject: %s', (_, breakIt) => {
    const score = base();
    breakIt(score);
    expect(checkSchema(score)).toBe(false);
    expect(validateScore(score).ok).toBe(false);
  });

  test('both accept null members in a cue view (they remove keys from the audience view)', () => {
    const score = base();
    score.cues.push({ at: { bar: 2 }, view: { text: null, image: null, color: null, instruction: null, data: null } });
    expect(checkSchema(score)).toBe(true);
    expect(validateScore(score).ok).toBe(true);
  });
});
