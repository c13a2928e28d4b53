// Attack (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): guessing the publish token (860 guesses/s measured,
// unthrottled, any length accepted). Now an address gets PUBLISH_FAILURE_LIMITER's wrong tokens
// a minute (10) and then 429 AUTH_THROTTLED without its token being compared; another address is
// not affected; and a PUBLISH_TOKEN under 16 characters publishes nothing (503 with the reason),
// nor does `npm run edge:dev` start with one. Real local workerd.
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@jest/globals';
import { ensureDevToken } from '../../edge-worker/scripts/dev-vars.js';
import { edgeForSuite, fromAddress, snapshot, startEdge } from './helpers.js';

const GUESSER = '198.51.100.60';
/** PUBLISH_FAILURE_LIMITER in wrangler.jsonc: 10 a minute; a run may straddle two windows. */
const FAILURES_AT_MOST = 20;

const suite = edgeForSuite();

const post = (token, address, body = snapshot('guess', 0, { bar: 1 })) =>
  fetch(`${suite.edge.url}/publish`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...fromAddress(address) },
    body: JSON.stringify(body),
  });

test('200 wrong publish tokens from one address: 10 (20 across a window edge) compared, the rest 429 — the right one then too; another address publishes', async () => {
  const GUESSES = 200;
  const counts = {};
  const started = Date.now();
  for (let i = 0; i < GUESSES; i += 1) {
    const res = await post(`guess-${String(i).padStart(20, '0')}`, GUESSER);
    counts[res.status] = (counts[res.status] ?? 0) + 1;
    await res.body?.cancel();
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `publish token guessing: ${GUESSES} guesses in ${seconds.toFixed(1)} s: ${JSON.stringify(counts)} (compared: ${counts[401] ?? 0})`,
  );
  expect(counts[401]).toBeLessThanOrEqual(FAILURES_AT_MOST);
  expect(counts[429]).toBeGreaterThanOrEqual(GUESSES - FAILURES_AT_MOST);
  const throttled = await post(suite.edge.token, GUESSER);
  expect(throttled.status).toBe(429);
  expect(throttled.headers.get('retry-after')).toMatch(/^\d+$/);
  expect((await throttled.json()).error).toBe('AUTH_THROTTLED');
  const other = await post(suite.edge.token, '198.51.100.61');
  expect(other.status).toBe(200);
}, 90_000);

test('a PUBLISH_TOKEN under 16 characters publishes nothing, and says why', async () => {
  const weak = await startEdge({ direct: true, vars: { PUBLISH_TOKEN: 'short-token' } });
  try {
    const res = await fetch(`${weak.url}/publish`, {
      method: 'POST',
      headers: { authorization: 'Bearer short-token', 'content-type': 'application/json' },
      body: JSON.stringify(snapshot('weak', 0, {})),
    });
    const body = await res.json();
    expect([res.status, body.error]).toEqual([503, 'WEAK_PUBLISH_TOKEN']);
    expect(body.message).toMatch(/PUBLISH_TOKEN is 11 characters; a publish token must be at least 16/);
  } finally {
    await weak.stop();
  }
}, 90_000);

test('edge:dev refuses a short PUBLISH_TOKEN in .dev.vars', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-devvars-'));
  try {
    const file = join(dir, '.dev.vars');
    writeFileSync(file, 'PUBLISH_TOKEN=1234\n', { mode: 0o600 });
    expect(() => ensureDevToken(file)).toThrow(/PUBLISH_TOKEN is 4 characters; a publish token must be at least 16/);
    writeFileSync(file, 'PUBLISH_TOKEN=1234567890abcdef\n', { mode: 0o600 });
    expect(ensureDevToken(file)).toBe('1234567890abcdef');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
