// The audience page, the part page and the composer's console through a real screen reader:
// GNOME's Orca reading Firefox ESR (support/orca.js; docs/reference/test-suites.md#suites-beyond-npm-test). test/audience/a11y.test.js checks
// the live regions' texts inside Chromium; this checks what a blind listener or player actually
// hears during a performance: each section, the vote, the next cue as they come, and nothing that
// talks over the music on its own — no beat numbers or countdowns, and no "N percent" from the
// progress line (Orca speaks a progress bar's changes every 10 s by default, so the line is drawn
// for the eye only).

import { startShow } from '../support/show.js';
import { writeVoteScore } from '../support/vote-score.js';
import { writeTempScore } from '../audience/support/temp-score.js';
import { screenReaderUnavailable, startScreenReader } from './support/orca.js';

/** Firefox ESR, and Chromium: the engine of Chrome on Android, whose screen reader (TalkBack) reads the same tree. */
const BROWSERS = /** @type {const} */ (['firefox', 'chromium']);

const BPM = 200;
/** 4/4 at 200 bpm, sections A–C every 4 bars, the violin's cues at bars 2, 6 and 10. */
const PART_SCORE = {
  format: 'tutti-score/1',
  id: 'screen-reader-part',
  title: 'Heard part',
  bars: 12,
  meter: [{ bar: 1, beats: 4, unit: 4 }],
  tempo: [{ at: { bar: 1 }, bpm: BPM }],
  sections: [
    { at: { bar: 1 }, mark: 'A', name: 'Opening' },
    { at: { bar: 5 }, mark: 'B' },
    { at: { bar: 9 }, mark: 'C' },
  ],
  parts: [{ id: 'vln', name: 'Violin', osc: '/vln' }],
  cues: [
    { at: { bar: 2 }, osc: { part: 'vln', address: '/cue', args: ['A2', 'pp'] } },
    { at: { bar: 6 }, osc: { part: 'vln', address: '/cue', args: ['B', 'mf'] } },
    { at: { bar: 10 }, osc: { part: 'vln', address: '/cue', args: ['C', 'f'] } },
  ],
};

/** @type {Array<() => Promise<unknown>>} */
const cleanUps = [];
afterEach(async () => {
  while (cleanUps.length) await cleanUps.pop()?.();
});

/**
 * Open `url` in `browser` with Orca running, let Orca read the page once, play the show until Orca
 * says what `last` matches, and a little longer; returns what Orca said from the moment the show started, and
 * the reader (still running).
 * @param {Awaited<ReturnType<typeof startShow>>} show
 * @param {string} url
 * @param {RegExp} last
 * @param {'firefox' | 'chromium'} browser
 */
async function hearPerformance(show, url, last, browser) {
  const reader = await startScreenReader(url, browser);
  cleanUps.push(() => reader.stop());
  await reader.waitToSay((s) => s.startsWith('Finished loading'), 40_000, 'that the page finished loading');
  // Orca reads the page once on load; the performance starts when it has finished.
  let heard = -1;
  while (reader.spoken().length !== heard) {
    heard = reader.spoken().length;
    await new Promise((r) => setTimeout(r, 2000));
  }
  show.show.engine.play();
  await reader.waitToSay((s) => last.test(s), 40_000, String(last));
  await new Promise((r) => setTimeout(r, (4 * 4 * 60_000) / BPM)); // the last section's 4 bars
  const said = reader.spoken().slice(heard);
  console.log(`Orca during the performance (${said.length} utterances): ${JSON.stringify(said)}`);
  return { said, reader };
}

/** Nothing said on its own but what the page announces: no numbers, countdowns or percentages. */
function expectNoChatter(said) {
  expect(said.filter((s) => /percent/.test(s))).toEqual([]);
  expect(said.filter((s) => /^\d+(:\d+)*$/.test(s.trim()) || /^\d+ beats?/.test(s.trim()))).toEqual([]);
}

describe.each(BROWSERS)('Orca reading %s', (browser) => {
  const reason = screenReaderUnavailable(browser);
  const run = reason ? test.skip : test;
  if (reason && process.env.TUTTI_REQUIRE_ENGINES)
    test(`Orca and ${browser} are installed`, () => {
      throw new Error(reason);
    });
  if (reason) console.warn(`test:browsers: screen reader with ${browser} not checked: ${reason}`);

  run(
    'audience page: Orca speaks each section and the vote as they come, and a lost connection; no beat numbers, no progress percentages',
    async () => {
      // A vote opens at bar 6 for 8 beats. Nobody votes, so "To C", written first, wins: C follows B.
      const show = await startShow({ scorePath: writeVoteScore({ bpm: BPM, at: { bar: 6 } }), autoplay: false });
      let closed = false;
      cleanUps.push(() => (closed ? undefined : show.close()));
      const { said, reader } = await hearPerformance(show, `${show.audienceUrl}/`, /^Section D$/, browser);

      // Each section once, as it comes (A may already have been read with the page).
      const sections = said.filter((s) => /^Section /.test(s));
      expect(sections.slice(-3)).toEqual(['Section B', 'Section C', 'Section D']);
      expect(new Set(sections).size).toBe(sections.length);
      expect(said.filter((s) => s.startsWith('Vote: Which way?'))).toEqual(['Vote: Which way? Choices: To C, To D, Stay.']);
      expect(said.filter((s) => s.startsWith('Vote result'))).toEqual(['Vote result: To C: 0 of 0 votes']);
      expectNoChatter(said);
      // 64 beats: a few announcements, never one per beat.
      expect(said.length).toBeLessThan(64 / 4);

      // The venue's server goes away: the page says so in its assertive region, and Orca speaks it.
      closed = true;
      await show.close();
      await reader.waitToSay((s) => s === 'Connection lost. Reconnecting…', 20_000, 'that the connection was lost');
    },
    120_000,
  );

  run(
    "console: Orca speaks the log's vote lines to the composer, not the vote's running counts",
    async () => {
      const show = await startShow({ scorePath: writeVoteScore({ bpm: BPM, at: { bar: 6 } }), autoplay: false });
      cleanUps.push(() => show.close());
      const { said } = await hearPerformance(show, `${show.controlUrl}/?token=test-token`, /INFO\s?:\sprompt path closed/, browser);

      // The log (a polite live region) tells the prompt's opening and its result, its time, level
      // and text apart ("06:06:41, INFO: prompt …"; the flex row alone gave "06:06:41INFOprompt" in
      // Chromium, "06:06:41INFO prompt" in Firefox). The separators' spaces are no-break ones, and
      // Firefox puts a space before their punctuation; speech voices neither differently.
      const lines = said.map((s) => s.replace(/\u00a0/g, ' ').replace(/ ([,:])/g, '$1'));
      expect(lines.filter((s) => /^\d\d:\d\d:\d\d, INFO: prompt path open until/.test(s))).toHaveLength(1);
      expect(lines.filter((s) => /^\d\d:\d\d:\d\d, INFO: prompt path closed: c wins with 0 of 0$/.test(s))).toHaveLength(1);
      // …and the tally's rows, redrawn with every update, are not read out each time.
      expect(said.filter((s) => /^(To C|To D|Stay)\s+\d+$/.test(s.trim()))).toEqual([]);
      expectNoChatter(said);
      expect(said.length).toBeLessThan(64 / 4);
    },
    120_000,
  );

  run(
    "part page: Orca speaks the player's sections and next cues as they come; not the countdown",
    async () => {
      const score = await writeTempScore(PART_SCORE);
      cleanUps.push(() => score.remove());
      const show = await startShow({ scorePath: score.file, autoplay: false });
      cleanUps.push(() => show.close());
      const { said } = await hearPerformance(show, `${show.audienceUrl}/part/${show.partKey}/#vln`, /^Section C$/, browser);

      const sections = said.filter((s) => /^Section /.test(s));
      expect(sections.slice(-2)).toEqual(['Section B', 'Section C']);
      expect(new Set(sections).size).toBe(sections.length);
      expect(said).toEqual(expect.arrayContaining(['Next cue: B · mf, bar 6 beat 1.', 'Next cue: C · f, bar 10 beat 1.']));
      expectNoChatter(said);
      // 48 beats, a countdown on every one of them: a few announcements.
      expect(said.length).toBeLessThan(48 / 4);
    },
    120_000,
  );
});
