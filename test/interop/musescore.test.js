// MuseScore 3 (Debian's musescore3), the free notation program many composers write in, run for
// real: the demo scores it ships (musescore3-common) are exported headless by `mscore3 -o` to
// MusicXML, compressed MusicXML and MIDI, the three files a composer could bring, and `tutti
// import` reads each. The three of one piece must agree — bars played out (repeats, a 3/8 pickup),
// meter, length — and the MIDI file's parts, which MuseScore names nowhere, come out named by
// their General MIDI instrument (local-server/src/import/gm-programs.js).

import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTimeline } from '#core/score/timeline.js';
import { importNotationFile } from '../../local-server/src/import/import-file.js';

const run = promisify(execFile);
const SHARE = '/usr/share';
/** Where musescore3-common puts the demos (the folder is named by version: mscore3-3.2). */
const demos = () => {
  const folder = existsSync(SHARE) ? readdirSync(SHARE).find((d) => /^mscore3?-3/.test(d)) : undefined;
  return folder ? path.join(SHARE, folder, 'demos') : undefined;
};

const CASES = [
  { demo: 'Fugue_1.mscx', bars: 29, parts: 4, midiParts: ['Violin 1', 'Violin 2', 'Viola', 'Cello'] },
  { demo: 'Brassed_Up.mscx', bars: 34, parts: 4, midiParts: ['Trumpet', 'Trombone 1', 'Trombone 2', 'Tuba'] }, // repeats played out
  { demo: 'Unclaimed_Gift.mscx', bars: 45, parts: 1, midiParts: ['Acoustic Grand Piano'] }, // a 3/8 pickup, repeats
  { demo: 'Reunion.mscz', bars: 23, parts: 1, midiParts: ['Acoustic Grand Piano 1', 'Acoustic Grand Piano 2'] }, // five meters
  { demo: 'Dynamic_Strings.mscx', bars: 19, parts: 4, midiParts: [1, 2, 3, 4].map((n) => `String Ensemble 1 (${n})`) },
];

let dir;
let demoDir;

beforeAll(async () => {
  demoDir = demos();
  if (spawnSync('sh', ['-c', 'command -v mscore3']).status !== 0 || !demoDir)
    throw new Error(
      'npm run test:interop needs mscore3 and its demo scores (Debian package musescore3): apt-get install -y --no-install-recommends musescore3',
    );
  dir = await mkdtemp(path.join(tmpdir(), 'tutti-musescore-'));
});

afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

/** `mscore3 -o OUT SOURCE`, headless, with its settings in the test's folder. */
async function exportWith(source, out) {
  const env = { ...process.env, QT_QPA_PLATFORM: 'offscreen', HOME: dir, XDG_CONFIG_HOME: dir, XDG_DATA_HOME: dir };
  const { stdout, stderr } = await run('mscore3', ['-o', out, source], { env, timeout: 120_000 });
  if (!existsSync(out)) throw new Error(`mscore3 wrote no ${path.basename(out)}:\n${stdout}${stderr}`);
  return out;
}

for (const c of CASES) {
  test(`${c.demo}: MuseScore's MusicXML, .mxl and MIDI import to the same bars, meter and length`, async () => {
    const source = path.join(demoDir, c.demo);
    const base = path.join(dir, path.basename(c.demo, path.extname(c.demo)));
    const results = {};
    for (const ext of ['musicxml', 'mxl', 'mid']) {
      const { score } = await importNotationFile(await exportWith(source, `${base}.${ext}`));
      const timeline = createTimeline(score);
      results[ext] = { bars: score.bars, meter: score.meter, seconds: timeline.msAt(timeline.totalBeats) / 1000, parts: score.parts };
    }
    process.stdout.write(
      `${c.demo}: ${Object.entries(results)
        .map(([ext, r]) => `${ext} ${r.bars} bars ${r.seconds.toFixed(2)} s`)
        .join(' · ')}\n`,
    );
    for (const ext of ['musicxml', 'mxl', 'mid']) {
      expect([ext, results[ext].bars]).toEqual([ext, c.bars]);
      expect([ext, results[ext].meter]).toEqual([ext, results.musicxml.meter]);
      // MuseScore renders a gradual tempo change into steps in MIDI: the length within 0.5 %.
      expect(Math.abs(results[ext].seconds - results.musicxml.seconds)).toBeLessThanOrEqual(results.musicxml.seconds * 0.005);
    }
    expect(results.musicxml.parts).toHaveLength(c.parts);
    expect(results.mxl.parts).toEqual(results.musicxml.parts);
    expect(results.mid.parts.map((p) => p.name)).toEqual(c.midiParts);
  }, 300_000);
}
