// Code cites the docs by repo path and anchor (`// docs/reference/osc.md#address-space`), never by a
// section title that can vanish unnoticed (issue 37: 17 of 443 such citations pointed nowhere).
// Every cited page and anchor must exist; tools/docs/cite-docs.js rewrites title citations.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { anchorsOf } from '../../tools/docs/markdown.js';
import { codeFiles, findCitations } from '../../tools/docs/cite-docs.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const files = codeFiles(ROOT).map((path) => ({ path, text: readFileSync(ROOT + path, 'utf8') }));
// A Markdown path of this repository (docs/…, or a file at the top or in a folder) with its anchor.
const CITED = /(?<![\w/.@-])((?:docs\/[\w./-]+|(?:[\w-]+\/)*(?:README|SECURITY|CONTRIBUTING|CHANGELOG))\.md)(?:#([\p{L}\p{N}_-]+))?/gu;

test('every page and anchor cited in code exists', () => {
  const cited = files.flatMap(({ path, text }) =>
    [...text.matchAll(CITED)].map((m) => ({ where: `${path}:${text.slice(0, m.index).split('\n').length}`, page: m[1], anchor: m[2] })),
  );
  expect(cited.filter((c) => c.anchor).length).toBeGreaterThan(300);
  const anchors = new Map();
  const broken = cited.filter(({ page, anchor }) => {
    if (!existsSync(ROOT + page)) return true;
    if (!anchor) return false;
    if (!anchors.has(page)) anchors.set(page, anchorsOf(readFileSync(ROOT + page, 'utf8')));
    return !anchors.get(page).has(anchor);
  });
  expect(broken.map((c) => `${c.where}: ${c.page}${c.anchor ? `#${c.anchor}` : ''}`)).toEqual([]);
});

test('no comment cites a doc by section title', () => {
  const old = files.flatMap(({ path, text }) => findCitations(ROOT, text).map((c) => `${path}: ${c.match.replace(/\s+/g, ' ')}`));
  expect(old).toEqual([]);
});

test('the finder reads a title citation, also across a comment line break, and maps it to its page', () => {
  const text =
    '// kept (README.md, "Rehearsing") here\n// and (SECURITY.md, "Exempt means\n// exactly 127.0.0.1 and ::1") too\nconst s = \'README.md, "Logs"\';\n';
  const found = findCitations(ROOT, text);
  expect(found.map((c) => c.target)).toEqual([
    'docs/how-to/rehearse.md#rehearsing',
    'docs/explanation/threat-model.md#exempt-means-exactly-127001-and-1',
  ]);
});
