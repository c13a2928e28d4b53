// `tutti new NAME` (local-server/src/score/new-score.js): a real process writes a skeleton that
// `tutti validate` passes, with placeholder media that exist and a "$schema" that resolves to this
// installation's schema from wherever the file is (and the skeleton satisfies that schema, which is
// what an editor checks); nothing is ever overwritten.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { spawnTutti } from '../../support/serve-process.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let dir;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tutti-new-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function tutti(args, cwd) {
  const run = spawnTutti(args, { cwd });
  return new Promise((resolve) => run.child.on('close', (code) => resolve({ code, stdout: run.stdout(), stderr: run.stderr() })));
}

test('a new score validates, its media exist, and its $schema resolves from another folder', async () => {
  const made = await tutti(['new', 'shows/First Light'], dir);
  expect(made.stderr).toBe('');
  expect(made.code).toBe(0);
  const file = path.join(dir, 'shows', 'First Light.score.json');
  expect(made.stdout).toContain(`Wrote ${file} (id "first-light")`);

  // Validated from yet another working directory, as a user would.
  const checked = await tutti(['validate', file], os.tmpdir());
  expect(checked.stderr).toBe('');
  expect(checked.code).toBe(0);
  expect(checked.stdout).toMatch(/^✓ .*"First Light" \(first-light\) — 32 bars/);

  const score = JSON.parse(readFileSync(file, 'utf8'));
  for (const asset of score.assets) expect(statSync(path.join(dir, 'shows', asset.src)).size).toBeGreaterThan(0);
  const wav = readFileSync(path.join(dir, 'shows', 'media', 'first-light', 'bell.wav'));
  expect(wav.subarray(0, 4).toString()).toBe('RIFF');
  expect(wav.length).toBeLessThan(20_000);

  // The $schema is an absolute file URL to this checkout's schema, and the file satisfies it.
  expect(score.$schema).toMatch(/^file:\/\//);
  const schemaFile = fileURLToPath(score.$schema);
  expect(schemaFile).toBe(path.join(root, 'scores', 'score.schema.json'));
  const validate = new Ajv2020({ allErrors: true }).compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
  expect(validate(score) ? [] : validate.errors).toEqual([]);
});

test('nothing is overwritten, and bad names are refused', async () => {
  expect((await tutti(['new', 'piece'], dir)).code).toBe(0);
  const before = readFileSync(path.join(dir, 'piece.score.json'), 'utf8');
  const again = await tutti(['new', 'piece'], dir);
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/piece\.score\.json already exists; .*nothing was written/);
  expect(readFileSync(path.join(dir, 'piece.score.json'), 'utf8')).toBe(before);

  const none = await tutti(['new'], dir);
  expect(none.code).toBe(2);
  expect(none.stderr).toMatch(/give one name/);
  const symbols = await tutti(['new', '!!!'], dir);
  expect(symbols.code).toBe(1);
  expect(symbols.stderr).toMatch(/no letters or digits/);
  expect(existsSync(path.join(dir, '!!!.score.json'))).toBe(false);
  const help = await tutti(['new', '--help'], dir);
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/Usage: tutti new NAME/);
});
