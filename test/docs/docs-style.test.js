// The docs' limits (issue 37): the doorways stay short and the pages keep paragraphs readable.
// docs/README.md#writing-a-page says why.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { markdownFiles, paragraphsOf } from '../../tools/docs/markdown.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const bytes = (path) => statSync(ROOT + path).size;
const files = markdownFiles(ROOT);

// Pages written in the docs split; pages other work adds follow the same rule in their own tests.
const SPLIT_PAGES = files.filter(
  (p) =>
    /^docs\/(tutorials|how-to|reference|explanation)\/[^/]+\.md$|^docs\/(README|results)\.md$/.test(p) &&
    !/graphic-scores|score-editing-api|notation|meter|part-key|tutti-on-your-path|first-piece-without-json/.test(p),
);

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
  expect(SPLIT_PAGES.length).toBeGreaterThan(30);
  const long = SPLIT_PAGES.flatMap((page) =>
    paragraphsOf(readFileSync(ROOT + page, 'utf8'))
      .filter((p) => p.text.length > 600)
      .map((p) => `${page}:${p.n} (${p.text.length})`),
  );
  expect(long).toEqual([]);
});
