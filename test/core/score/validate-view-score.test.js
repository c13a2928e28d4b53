// A view's `score` key (docs/reference/notation.md#the-score-on-the-audiences-phones): the part (or
// "all") whose engraved pages the audience follows. Validated with path + sentence: a part the
// score does not have, a score without notation; null removes it as every view key; the engraved
// pages' media folder is not an asset's; and which parts a score shows the audience.
import { describe, expect, test } from '@jest/globals';
import { validateScore } from '#core/score/validate.js';
import { notationMapPath, notationPagePath, parseNotationMediaPath, partsShownToAudience } from '#core/score/audience-score.js';

const score = (extra = {}) => ({
  format: 'tutti-score/1',
  id: 'view-score',
  title: 'View score',
  bars: 8,
  meter: [{ bar: 1, beats: 4, unit: 4 }],
  tempo: [{ at: { bar: 1 }, bpm: 90 }],
  notation: 'piece.musicxml',
  parts: [
    { id: 'violin', osc: '/violin' },
    { id: 'cello', osc: '/cello' },
  ],
  ...extra,
});

describe('a view that shows the score', () => {
  test('"all" or a part id, in the initial view and in cues; null takes it down', () => {
    const result = validateScore(
      score({
        view: { score: 'all' },
        cues: [
          { at: { bar: 3 }, view: { score: 'cello', text: 'The cello' } },
          { at: { bar: 6 }, view: { score: null } },
        ],
      }),
    );
    expect(result.problems).toEqual([]);
    expect(result.score?.view).toEqual({ score: 'all' });
    expect(result.score?.cues.map((c) => c.view)).toEqual([{ score: 'cello', text: 'The cello' }, { score: null }]);
    expect(partsShownToAudience(result.score)).toEqual(['all', 'cello']);
  });

  test.each([
    [{ score: 'bassoon' }, 'cues[0].view.score', /there is no part with id "bassoon" \(known: violin, cello\)/],
    [{ score: 'celo' }, 'cues[0].view.score', /did you mean "cello"\?/],
    [{ score: 3 }, 'cues[0].view.score', /expected "all" \(the full score\) or a part's id.*got 3$/],
  ])('%p is refused with a sentence on its path', (view, path, message) => {
    const result = validateScore(score({ cues: [{ at: { bar: 2 }, view }] }));
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([{ path, message: expect.stringMatching(message) }]);
  });

  test('a score without notation has no pages to show', () => {
    const { notation, ...without } = score({ cues: [{ at: { bar: 2 }, view: { score: 'all' } }] });
    expect(notation).toBe('piece.musicxml');
    const result = validateScore(without);
    expect(result.problems).toEqual([
      {
        path: 'cues[0].view.score',
        message: expect.stringMatching(/^the score has no engraved notation to show the audience; name the MusicXML/),
      },
    ]);
  });

  test('the initial view has nothing to remove', () => {
    const result = validateScore(score({ view: { score: null } }));
    expect(result.problems).toEqual([{ path: 'view.score', message: expect.stringMatching(/nothing to remove/) }]);
  });

  test("an asset may not live in the engraved pages' media folder", () => {
    const result = validateScore(score({ assets: [{ id: 'pic', kind: 'image', src: 'notation/all/phone/1.svg' }] }));
    expect(result.problems).toEqual([
      {
        path: 'assets[0].src',
        message: expect.stringMatching(/the folder "notation\/" is where the audience's engraved pages are served/),
      },
    ]);
  });
});

describe('the media paths of the engraved pages', () => {
  test('built and read back the same way', () => {
    expect(notationMapPath('all')).toBe('notation/all/phone.json');
    expect(notationPagePath('cello', 3)).toBe('notation/cello/phone/3.svg');
    expect(parseNotationMediaPath('notation/cello/phone/3.svg')).toEqual({ part: 'cello', layout: 'phone', page: 3 });
    expect(parseNotationMediaPath('notation/all/phone.json')).toEqual({ part: 'all', layout: 'phone', page: null });
    for (const bad of [
      'notation/../x.svg',
      'notation/all/phone/x.svg',
      'notation/all.json',
      'media/all/phone.json',
      'notation/a b/phone.json',
    ])
      expect(parseNotationMediaPath(bad)).toBeNull();
  });
});
