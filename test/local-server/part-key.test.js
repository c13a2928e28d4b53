// The part-page key (local-server/src/part-key.js): short, derived from the control token (the
// same token after a restart keeps the tablets' links working; another token gives another key),
// and checked exactly.
import { createPartKey, PART_KEY_CHARS } from '../../local-server/src/part-key.js';

test('10 URL-safe characters, the same for the same token, different for another, never the token itself', () => {
  const a = createPartKey('a-control-token-of-16+');
  expect(a.key).toMatch(new RegExp(`^[A-Za-z0-9_-]{${PART_KEY_CHARS}}$`));
  expect(createPartKey('a-control-token-of-16+').key).toBe(a.key);
  expect(createPartKey('another-control-token!').key).not.toBe(a.key);
  expect('a-control-token-of-16+').not.toContain(a.key);
});

test('matches only the exact key', () => {
  const { key, matches } = createPartKey('a-control-token-of-16+');
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
