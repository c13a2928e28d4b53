// Attack: reading another user's secret. `npm run edge:dev` wrote edge-worker/.dev.vars (the dev
// publish token) with the default mode, readable by every account on the machine. Now it is
// created 0600 and an existing looser file is tightened (edge-worker/scripts/dev-vars.js).

import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDevToken } from '../../edge-worker/scripts/dev-vars.js';

let work;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'tutti-devvars-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

const modeOf = async (file) => (await stat(file)).mode & 0o777;

test('dev-vars-readable: a new .dev.vars holding the publish token is readable by its owner only', async () => {
  const file = join(work, 'new.dev.vars');
  const token = ensureDevToken(file);
  expect(await readFile(file, 'utf8')).toContain(`PUBLISH_TOKEN=${token}`);
  expect((await modeOf(file)).toString(8)).toBe('600');
  expect(ensureDevToken(file)).toBe(token);
});

test('dev-vars-readable: an existing world-readable .dev.vars is tightened to 0600, its token kept', async () => {
  const file = join(work, 'old.dev.vars');
  await writeFile(file, 'PUBLISH_TOKEN=kept-token-1234567890\n', { mode: 0o644 });
  expect(ensureDevToken(file)).toBe('kept-token-1234567890');
  expect((await modeOf(file)).toString(8)).toBe('600');
});
