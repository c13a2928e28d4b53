// The console serves source modules as they are, found by following imports from its entries;
// `#core/` specifiers (package.json "imports") become the /core/ URLs a browser can load.

import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectModules, browserModuleText } from '../../../local-server/src/console/console-modules.js';

let dir;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tutti-console-modules-'));
  await mkdir(join(dir, 'core', 'a'), { recursive: true });
  await mkdir(join(dir, 'web'), { recursive: true });
  await writeFile(join(dir, 'core', 'a', 'one.js'), "import { two } from './two.js';\nexport const one = two;\n");
  await writeFile(join(dir, 'core', 'a', 'two.js'), 'export const two = 2;\n');
  await writeFile(join(dir, 'core', 'a', 'unused.js'), 'export const no = 0;\n');
  await writeFile(join(dir, 'web', 'view.js'), "import { one } from '#core/a/one.js';\nexport { helper } from './helper.js';\n");
  await writeFile(join(dir, 'web', 'helper.js'), "import '../outside.js';\nexport const helper = 1;\n");
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test('only modules reachable from the entries are served, with #core/ pointing at /core/', async () => {
  const core = new Map();
  const web = await collectModules({ root: join(dir, 'web'), entries: ['view.js'], coreDir: join(dir, 'core') }, core);
  expect([...web.keys()].sort()).toEqual(['helper.js', 'view.js']); // ../outside.js leaves the folder: not served
  expect([...core.keys()].sort()).toEqual(['a/one.js', 'a/two.js']);
  expect(web.get('view.js').toString()).toContain("from '/core/a/one.js'");
});

test('the rewrite touches import specifiers only', () => {
  expect(browserModuleText("import { x } from '#core/p/q.js';\nconst s = '#core/not-an-import';")).toBe(
    "import { x } from '/core/p/q.js';\nconst s = '#core/not-an-import';",
  );
});
