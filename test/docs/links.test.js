// Every relative link and #anchor in the repository's Markdown resolves, with GitHub's anchor
// rules (docs/README.md, "How the docs are checked": docs/README.md#how-the-docs-are-checked).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchorsOf, linksOf, markdownFiles, slugOf } from '../../tools/docs/markdown.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const files = markdownFiles(ROOT).filter((p) => existsSync(ROOT + p));
const anchors = new Map();
const anchorsIn = (path) => {
  if (!anchors.has(path)) anchors.set(path, anchorsOf(readFileSync(ROOT + path, 'utf8')));
  return anchors.get(path);
};

test('GitHub slugs: punctuation dropped, code marks and link targets gone, repeats kept apart', () => {
  expect(slugOf('`tutti serve` flags')).toBe('tutti-serve-flags');
  expect(slugOf('Control API (127.0.0.1 only, `Bearer <token>`)')).toBe('control-api-127001-only-bearer-token');
  expect(slugOf('Clock sync — the [flywheel](x.md)')).toBe('clock-sync--the-flywheel');
  expect([...anchorsOf('# A\n\n## A\n\n```\n# A\n```\n')]).toEqual(['a', 'a-1']);
});

test('every relative link and anchor in the Markdown resolves', () => {
  expect(files.length).toBeGreaterThan(30);
  const broken = [];
  for (const file of files) {
    for (const { href, n } of linksOf(readFileSync(ROOT + file, 'utf8'))) {
      const [path, anchor] = href.split('#');
      const target = path ? posix.normalize(posix.join(posix.dirname(file), decodeURI(path))) : file;
      if (!existsSync(ROOT + target)) broken.push(`${file}:${n}: ${href} (no such file)`);
      else if (anchor !== undefined && (statSync(ROOT + target).isDirectory() || !target.endsWith('.md')))
        broken.push(`${file}:${n}: ${href} (anchor on a file that is not Markdown)`);
      else if (anchor !== undefined && !anchorsIn(target).has(anchor)) broken.push(`${file}:${n}: ${href} (no such anchor)`);
    }
  }
  expect(broken).toEqual([]);
});
