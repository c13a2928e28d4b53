// The docs say what the OSC sender does by default (issue 40 item 19: a page said cues were "sent
// ahead of time with an OSC timetag" long after plain, on-time delivery became the default). The
// claims are read from every Markdown page and checked against local-server/src/osc/osc-target.js.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OSC_MODES } from '../../local-server/src/osc/osc-target.js';
import { markdownFiles, paragraphsOf } from '../../tools/docs/markdown.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pages = markdownFiles(ROOT).map((file) => ({ file, text: readFileSync(ROOT + file, 'utf8') }));
const paragraphs = pages.flatMap(({ file, text }) => paragraphsOf(text).map((p) => ({ where: `${file}:${p.n}`, text: p.text })));
// Table rows too: the modes are tabled on the OSC pages.
const lines = pages.flatMap(({ file, text }) => text.split('\n').map((line, i) => ({ where: `${file}:${i + 1}`, text: line })));
// Tutti sending something with a timetag, in one sentence.
const SENDS_TIMETAGGED = /\b(sent|sends|send)\b[^.]{0,80}\btime ?tag|\btime ?tag(ged)?\b[^.]{0,40}\b(sent|sends)\b/i;

test('the default mode is plain, on-time delivery', () => {
  expect(OSC_MODES[0]).toBe('plain');
});

test('every page that says Tutti sends timetagged OSC says it is the `ahead` mode', () => {
  const claims = paragraphs.filter((p) => SENDS_TIMETAGGED.test(p.text));
  expect(claims.length).toBeGreaterThan(0);
  expect(claims.filter((p) => !/`ahead`|mode=ahead/.test(p.text)).map((p) => `${p.where}: ${p.text.slice(0, 120)}`)).toEqual([]);
});

test('every page that names a default OSC mode names the real one', () => {
  const named = lines.flatMap((p) =>
    [...p.text.matchAll(/`(plain|ahead)`[^.|;]{0,12}\(?(the |Tutti's )?default\b/g)].map((m) => ({ ...p, mode: m[1] })),
  );
  expect(named.length).toBeGreaterThan(0);
  expect(named.filter((p) => p.mode !== OSC_MODES[0]).map((p) => `${p.where}: ${p.mode}`)).toEqual([]);
});
