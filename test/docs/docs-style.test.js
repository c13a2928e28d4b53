// The docs' limits (issue 37): the doorways stay short and the pages keep paragraphs readable.
// docs/README.md#writing-a-page says why.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generatedBlocks } from '../../tools/docs/bench-results.js';
import { longStretchesOf, markdownFiles, paragraphsOf } from '../../tools/docs/markdown.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const bytes = (path) => statSync(ROOT + path).size;
const files = markdownFiles(ROOT);

// Every page under docs/ and CONTRIBUTING.md; folder READMEs and the doorways have their own limits.
const PAGES = files.filter((p) => /^docs\/.+\.md$/.test(p) || p === 'CONTRIBUTING.md');
const text = (page) => readFileSync(ROOT + page, 'utf8');

test('README.md is at most 8 KB and SECURITY.md at most 4 KB', () => {
  expect(bytes('README.md')).toBeLessThanOrEqual(8 * 1024);
  expect(bytes('SECURITY.md')).toBeLessThanOrEqual(4 * 1024);
});

test('every folder README is at most 2 KB and points to a page under docs/', () => {
  const folders = files.filter((p) => p.endsWith('/README.md') && p !== 'docs/README.md');
  expect(folders.length).toBeGreaterThan(5);
  expect(folders.filter((p) => bytes(p) > 2048)).toEqual([]);
  expect(folders.filter((p) => !/\]\((\.\.\/)+docs\//.test(readFileSync(ROOT + p, 'utf8')))).toEqual([]);
});

test('paragraphs on the docs pages are at most 600 characters', () => {
  expect(PAGES.length).toBeGreaterThan(40);
  const long = PAGES.flatMap((page) =>
    paragraphsOf(text(page))
      .filter((p) => p.text.length > 600)
      .map((p) => `${page}:${p.n} (${p.text.length})`),
  );
  expect(long).toEqual([]);
});

test('no page under docs/ runs more than 1,536 bytes of prose without a heading', () => {
  // docs/results.md's generated blocks are written by tools/docs/bench-results.js, not by hand.
  const long = PAGES.flatMap((page) =>
    longStretchesOf(text(page), 1536, page === 'docs/results.md' ? generatedBlocks(text(page)) : []).map(
      (s) => `${page}:${s.n} (${s.bytes} bytes)`,
    ),
  );
  expect(long).toEqual([]);
});

test('a stretch counts prose only: code, tables, comments and skipped lines are left out', () => {
  const prose = 'x'.repeat(99); // 100 bytes with its newline
  const page = [
    '# Page',
    ...Array(10).fill(prose),
    '```',
    ...Array(10).fill(prose),
    '```',
    ...Array(10).fill(`| ${prose} |`),
    '<!--',
    ...Array(10).fill(prose),
    '-->',
    ...Array(10).fill(prose), // lines 46-55: skipped below
    '## Next',
    ...Array(16).fill(prose),
  ].join('\n');
  expect(longStretchesOf(page, 1000)).toEqual([
    { n: 1, bytes: 2000 },
    { n: 56, bytes: 1600 },
  ]);
  expect(longStretchesOf(page, 1000, [{ start: 45, end: 54 }])).toEqual([{ n: 56, bytes: 1600 }]);
});
