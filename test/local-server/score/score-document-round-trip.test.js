// Round trip (issue 39, docs/reference/score-editing-api.md#the-written-form): load → save with no
// edit keeps every field of every sample score and of an imported corpus file; the imported file
// (already in the written form) keeps its bytes; every later save writes the same bytes again.
// Real show servers on copies of scores/ and a real import.

import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startShow } from '../../support/show.js';
import { importToFile } from '../../../local-server/src/import/import-to-file.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const CORPUS = path.join(root, 'test/fixtures/corpus/musicxml/Mozart_String_Quartet_in_G_K._387_1st_Mvmnt_excerpt.musicxml');
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');
const samples = (await readdir(path.join(root, 'scores'))).filter((name) => name.endsWith('.score.json'));

let dir;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tutti-round-trip-'));
  await cp(path.join(root, 'scores'), dir, { recursive: true });
  await importToFile({ file: CORPUS, out: path.join(dir, 'mozart.score.json') });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Open the score in a show, GET it and PUT it back unchanged, twice; answer the bytes. */
async function saveUnchanged(file) {
  const server = await startShow({ scorePath: file, autoplay: false });
  try {
    const call = (method, body) =>
      fetch(`${server.controlUrl}/api/score/document`, {
        method,
        headers: { authorization: 'Bearer test-token' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then((res) => res.json());
    const saves = [];
    for (let n = 0; n < 2; n += 1) {
      const { score, revision } = await call('GET');
      const saved = await call('PUT', { revision, score });
      expect(saved).toMatchObject({ ok: true, applied: 'loaded' });
      saves.push(await readFile(file, 'utf8'));
    }
    return saves;
  } finally {
    await server.close();
  }
}

test('there are sample scores to check', () => {
  expect(samples.length).toBeGreaterThanOrEqual(3);
});

test.each(samples)(
  '%s keeps every field, and a second save writes the same bytes',
  async (name) => {
    const file = path.join(dir, name);
    const original = await readFile(file, 'utf8');
    const [first, second] = await saveUnchanged(file);
    expect(JSON.parse(first)).toEqual(JSON.parse(original));
    expect(Object.keys(JSON.parse(first))).toEqual(Object.keys(JSON.parse(original))); // same key order
    expect(second).toBe(first);
    expect(first.endsWith('}\n')).toBe(true);
  },
  30_000,
);

test('an imported corpus file keeps its bytes exactly', async () => {
  const file = path.join(dir, 'mozart.score.json');
  const original = await readFile(file);
  const [first, second] = await saveUnchanged(file);
  expect(sha(first)).toBe(sha(original));
  expect(second).toBe(first);
  expect(JSON.parse(first).parts.length).toBeGreaterThan(1);
}, 30_000);
