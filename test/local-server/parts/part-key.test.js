// The part-page key (local-server/src/parts/part-key.js, docs/reference/part-key.md): short, random
// (never derived from the control token, issue 40 item 13), kept in the state folder so a restart
// keeps the tablets' links, replaced on demand with the old key refused at once, checked exactly.
import { afterAll, expect, test } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPartKey, PART_KEY_CHARS } from '../../../local-server/src/parts/part-key.js';
import { startShow } from '../../support/show.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-part-key-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const FORM = new RegExp(`^[A-Za-z0-9_-]{${PART_KEY_CHARS}}$`);

test('10 URL-safe random characters: the same control token gives another key every time', async () => {
  const keys = new Set(await Promise.all(Array.from({ length: 20 }, async () => (await createPartKey()).key)));
  expect(keys.size).toBe(20);
  for (const key of keys) expect(key).toMatch(FORM);
  // Two servers with one token: two keys (it used to be an HMAC of the token).
  const a = await startShow({ autoplay: false, token: 'one-token-for-both-servers' });
  const b = await startShow({ autoplay: false, token: 'one-token-for-both-servers' });
  try {
    expect(a.partKey).not.toBe(b.partKey);
  } finally {
    await a.close();
    await b.close();
  }
});

test('kept in its file across restarts (readable by this user only); a rotation saves the new one and refuses the old', async () => {
  const file = path.join(dir, 'state', 'part-key');
  const first = await createPartKey({ file });
  expect(fs.readFileSync(file, 'utf8').trim()).toBe(first.key);
  if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect((await createPartKey({ file })).key).toBe(first.key);

  const told = [];
  first.onRotate((key) => told.push(key));
  const old = first.key;
  const fresh = await first.rotate();
  expect(fresh).toMatch(FORM);
  expect(fresh).not.toBe(old);
  expect(first.key).toBe(fresh);
  expect(first.matches(old)).toBe(false);
  expect(first.matches(fresh)).toBe(true);
  expect(told).toEqual([fresh]);
  expect((await createPartKey({ file })).key).toBe(fresh);
  // A damaged file gets a new key, saved.
  fs.writeFileSync(file, 'not a key at all\n');
  const replaced = await createPartKey({ file });
  expect(replaced.key).toMatch(FORM);
  expect(fs.readFileSync(file, 'utf8').trim()).toBe(replaced.key);
});

test('a part-key file that is a link is neither read nor written through', async () => {
  const target = path.join(dir, 'elsewhere.txt');
  fs.writeFileSync(target, 'AAAAAAAAAA\n');
  const file = path.join(dir, 'linked', 'part-key');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.symlinkSync(target, file);
  const errors = [];
  const partKey = await createPartKey({ file, onError: (err) => errors.push(err) });
  expect(partKey.key).not.toBe('AAAAAAAAAA');
  expect(fs.readFileSync(target, 'utf8')).toBe('AAAAAAAAAA\n');
  expect(errors).toHaveLength(1);
  expect(/** @type {any} */ (errors[0]).code).toBe('SYMLINK_REFUSED');
});

test('a server restarted with the same state folder keeps the key', async () => {
  const partKeyFile = path.join(dir, 'restart', 'part-key');
  const first = await startShow({ autoplay: false, partKeyFile });
  const key = first.partKey;
  await first.close();
  const second = await startShow({ autoplay: false, partKeyFile });
  try {
    expect(second.partKey).toBe(key);
    expect((await fetch(`${second.audienceUrl}/part/${key}/parts.json`)).status).toBe(200);
  } finally {
    await second.close();
  }
});

test('matches only the exact key', async () => {
  const { key, matches } = await createPartKey();
  expect(matches(key)).toBe(true);
  for (const other of [
    key.slice(0, -1),
    `${key}x`,
    key.toUpperCase() === key ? key.toLowerCase() : key.toUpperCase(),
    '',
    null,
    undefined,
    42,
    [key],
  ])
    expect(matches(other)).toBe(false);
});
