// The notation programs composers export MIDI from, run for real (docs/reference/test-suites.md#suites-beyond-npm-test)
// : LilyPond (Debian's lilypond), abc2midi (abcmidi) and MMA (mma) turn the sources in
// test/fixtures/notation-writers/ into MIDI here, and `tutti import` must read what npm test
// holds the committed files to (test/support/notation-writers.js): each pickup where the
// composer wrote it, abc2midi's late tempo on its beat. A newer program that writes differently
// fails here first.

import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { importNotationFile } from '../../local-server/src/import/import-file.js';
import { NOTATION_WRITERS_DIR, NOTATION_WRITER_CASES, expectNotationWriterCase } from '../support/notation-writers.js';

const run = promisify(execFile);
const PACKAGES = { lilypond: 'lilypond', abc2midi: 'abcmidi', mma: 'mma' };
let dir;

beforeAll(async () => {
  const missing = Object.entries(PACKAGES).filter(([bin]) => spawnSync('sh', ['-c', `command -v ${bin}`]).status !== 0);
  if (missing.length)
    throw new Error(
      `npm run test:interop needs ${missing.map(([bin, pkg]) => `${bin} (Debian package ${pkg})`).join(' and ')}: apt-get install -y --no-install-recommends lilypond abcmidi mma`,
    );
  dir = await mkdtemp(path.join(tmpdir(), 'tutti-notation-writers-'));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

for (const c of NOTATION_WRITER_CASES) {
  test(`${c.name}: ${c.program} writes it, tutti import reads it`, async () => {
    const src = path.join(NOTATION_WRITERS_DIR, c.source);
    // LilyPond takes an output name without its extension and adds .midi; abc2midi takes the file.
    const out = path.join(dir, c.program === 'lilypond' ? path.basename(c.midi, '.midi') : c.midi);
    const args = c.args.map((a) => (a === '{src}' ? src : a === '{out}' ? out : a));
    const { stdout, stderr } = await run(c.program, args, { timeout: 60_000 });
    const midi = path.join(dir, c.midi);
    const bytes = await readFile(midi).catch(() => {
      throw new Error(`${c.program} wrote no ${c.midi}:\n${stdout}${stderr}`);
    });
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('MThd');
    expectNotationWriterCase(await importNotationFile(midi, c.options), c);
  }, 90_000);
}
