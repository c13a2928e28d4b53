// The audience page through a real screen reader: GNOME's Orca reading Firefox ESR
// (support/orca.js; README.md, "Suites beyond npm test"). test/audience/a11y.test.js checks the
// live regions' texts inside Chromium; this checks what a blind audience member actually hears
// during a performance: each section and the vote as they come, and nothing that talks over the
// music on its own — no beat numbers, and no "N percent" from the progress line (Orca speaks a
// progress bar's changes every 10 s by default, so the line is drawn for the eye only).

import { startShow } from '../support/show.js';
import { writeVoteScore } from '../support/vote-score.js';
import { screenReaderUnavailable, startScreenReader } from './support/orca.js';

const reason = screenReaderUnavailable();
const run = reason ? test.skip : test;
if (reason && process.env.TUTTI_REQUIRE_ENGINES)
  test('Orca and Firefox are installed', () => {
    throw new Error(reason);
  });
if (reason) console.warn(`test:browsers: screen reader not checked: ${reason}`);

/**
 * 16 bars of 4/4 at 200 bpm (19 s): sections A, B, C, D every 4 bars; a vote opens at bar 6 for 8
 * beats. Nobody votes, so the option written first, "To C", wins: C follows B as written.
 */
const BPM = 200;

let show;
let reader;
afterAll(async () => {
  await reader?.stop();
  await show?.close();
});

run(
  'Orca in Firefox: sections and the vote are spoken as they come; no beat numbers, no progress percentages',
  async () => {
    show = await startShow({ scorePath: writeVoteScore({ bpm: BPM, at: { bar: 6 } }), autoplay: false });
    reader = await startScreenReader(`${show.audienceUrl}/`);
    await reader.waitToSay((s) => s.startsWith('Finished loading'), 40_000, 'that the page finished loading');
    // Orca reads the page once on load; the performance starts when it has finished.
    let heard = -1;
    while (reader.spoken().length !== heard) {
      heard = reader.spoken().length;
      await new Promise((r) => setTimeout(r, 2000));
    }
    show.show.engine.play();
    await reader.waitToSay((s) => s === 'Section D', 40_000, '"Section D"');
    await new Promise((r) => setTimeout(r, (4 * 4 * 60_000) / BPM)); // the last section's 4 bars
    const said = reader.spoken().slice(heard);
    console.log(`Orca during the performance (${said.length} utterances): ${JSON.stringify(said)}`);

    // Each section once, as it comes (A may already have been read with the page).
    const sections = said.filter((s) => /^Section /.test(s));
    expect(sections.slice(-3)).toEqual(['Section B', 'Section C', 'Section D']);
    expect(new Set(sections).size).toBe(sections.length);
    expect(said.filter((s) => s.startsWith('Vote: Which way?'))).toEqual(['Vote: Which way? Choices: To C, To D, Stay.']);
    expect(said.filter((s) => s.startsWith('Vote result'))).toEqual(['Vote result: To C: 0 of 0 votes']);
    expect(said.filter((s) => /percent/.test(s))).toEqual([]);
    expect(said.filter((s) => /^\d+(:\d+)?$/.test(s.trim()))).toEqual([]);
    // 64 beats: a few announcements, never one per beat.
    expect(said.length).toBeLessThan(64 / 4);
  },
  120_000,
);
