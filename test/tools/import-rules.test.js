// The lint rules that keep imports pointing one way (tools/lint/import-rules.js,
// docs/explanation/architecture.md#imports-point-one-way), run through the repository's own
// eslint.config.js on source text placed in the tree, and on real files for the import graph.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, Linter } from 'eslint';
import importRules from '../../tools/lint/import-rules.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The rule ids the repository's config reports for `text` as if it were the file `path`. */
async function rulesFor(path, text) {
  const [result] = await eslint.lintText(text, { filePath: join(ROOT, path) });
  return result.messages.map((m) => m.ruleId);
}

test('core/ is runtime-free: a node:* import is refused there, not in local-server/', async () => {
  const text = "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n";
  expect(await rulesFor('core/score/made-up.js', text)).toEqual(['no-restricted-imports']);
  expect(await rulesFor('local-server/src/score/made-up.js', text)).toEqual([]);
});

test("a file does not import a file of an ancestor folder; a sibling folder's file is fine", async () => {
  const up = "import { startShowServer } from '../server.js';\nexport const start = startShowServer;\n";
  const sibling = "import { createLog } from '../logs/log.js';\nexport const log = createLog;\n";
  expect(await rulesFor('local-server/src/osc/made-up.js', up)).toEqual(['tutti/no-parent-folder-import']);
  expect(await rulesFor('local-server/src/osc/made-up.js', sibling)).toEqual([]);
  const coreUp = "import { x } from '#core/score/validate.js';\nexport const y = x;\n";
  expect(await rulesFor('core/score/deeper/made-up.js', coreUp)).toEqual(['tutti/no-parent-folder-import']);
  expect(await rulesFor('core/engine/made-up.js', coreUp)).toEqual([]);
});

describe('import cycles, read from the files on disk', () => {
  let dir;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tutti-import-rules-'));
    mkdirSync(join(dir, 'core'));
    writeFileSync(join(dir, 'a.js'), "import { b } from './b.js';\nexport const a = b;\n");
    writeFileSync(join(dir, 'b.js'), "import { c } from './sub/c.js';\nexport const b = c;\n");
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'c.js'), "export { a as c } from '../a.js';\n");
    writeFileSync(join(dir, 'd.js'), "import { b } from './b.js';\nexport const d = b;\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const lint = (file) => {
    const linter = new Linter({ configType: 'flat', cwd: dir });
    const config = [{ files: ['**/*.js'], plugins: { tutti: importRules }, rules: { 'tutti/no-import-cycle': ['error', { root: dir }] } }];
    const text = {
      'a.js': "import { b } from './b.js';\nexport const a = b;\n",
      'd.js': "import { b } from './b.js';\nexport const d = b;\n",
    }[file];
    return linter.verify(text, config, { filename: join(dir, file) });
  };

  test('a chain of three files back to the first is a cycle, named file by file', () => {
    const messages = lint('a.js');
    expect(messages.map((m) => m.ruleId)).toEqual(['tutti/no-import-cycle']);
    expect(messages[0].message).toBe('import cycle: a.js → b.js → sub/c.js → a.js');
  });

  test('importing into a cycle without being part of it is not one', () => {
    expect(lint('d.js')).toEqual([]);
  });
});
