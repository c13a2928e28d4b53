// Every error the edge answers is in the catalogue (core/protocol/http-errors.js) and goes through
// one helper, edgeError (edge-worker/src/http/http.js): the sources are read for every call, the helper
// is checked for every code, and real requests to the worker on local workerd get the catalogue's
// status and body.

import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AUDIENCE_ERRORS, EDGE_ERRORS, edgeErrorEntry } from '#core/protocol/http-errors.js';
import { edgeError } from '../../edge-worker/src/http/http.js';
import { edgeForSuite } from './helpers.js';

const SRC = fileURLToPath(new URL('../../edge-worker/src/', import.meta.url));
const sources = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.js'))
  .map((name) => ({ name, text: readFileSync(`${SRC}${name}`, 'utf8') }));

/** Every edgeError call in the sources: its code (literal or expression) and explicit status. */
const calls = sources.flatMap(({ name, text }) =>
  [...text.matchAll(/\bedgeError\(\s*('([A-Z0-9_]+)'|[\w.]+)\s*(?:,\s*\{([^]*?)\}\s*\))?/g)]
    .filter((m) => !(name === 'http/http.js' && m[1] === 'code'))
    .map((m) => ({
      where: `${name}: ${m[0].slice(0, 60)}`,
      code: m[2] ?? null,
      expression: m[1],
      status: Number(/\bstatus:\s*(\d+)/.exec(m[3] ?? '')?.[1] ?? NaN),
    })),
);

test('every code the edge sends is in the catalogue, with a status the catalogue lists for it', () => {
  expect(calls.length).toBeGreaterThan(30);
  const wrong = calls.filter(({ code, status }) => {
    if (code === null) return false;
    const entry = edgeErrorEntry(code);
    return !entry || (Number.isFinite(status) && status !== entry.status && !entry.alsoStatus?.includes(status));
  });
  expect(wrong.map((c) => c.where)).toEqual([]);
  // The one code that is not a literal is the stream-query parser's (core/stream/query.js): audience codes.
  expect([...new Set(calls.filter((c) => c.code === null).map((c) => c.expression))]).toEqual(['query.code']);
});

test('no edge source writes an error body of its own', () => {
  const inline = sources.filter(({ name, text }) => name !== 'http/http.js' && /\berror:\s*['"`]|\berrorBody\(|\bjsonError\(/.test(text));
  expect(inline.map((s) => s.name)).toEqual([]);
});

test('edgeError answers every catalogued code with its status and {error, message}', async () => {
  for (const [code, entry] of Object.entries({ ...AUDIENCE_ERRORS, ...EDGE_ERRORS })) {
    const res = edgeError(/** @type {any} */ (code), { headers: { 'retry-after': '2' } });
    expect([code, res.status, await res.json()]).toEqual([code, entry.status, { error: code, message: entry.message }]);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('retry-after')).toBe('2');
  }
  const vote = edgeError('BAD_VOTE', { status: 415, message: 'send the vote as application/json' });
  expect([vote.status, await vote.json()]).toEqual([415, { error: 'BAD_VOTE', message: 'send the vote as application/json' }]);
  expect(() => edgeError(/** @type {any} */ ('MADE_UP'))).toThrow(/not in the catalogue/);
  expect(() => edgeError('BAD_SHOW', { status: 500 })).toThrow(/not answered with 500/);
});

describe('on workerd', () => {
  const suite = edgeForSuite();
  const cases = [
    { path: '/s/Not_A_Name/', code: 'BAD_SHOW' },
    { path: '/s/nobody/', code: 'NO_SUCH_SHOW' },
    { path: '/poll', method: 'POST', code: 'METHOD_NOT_ALLOWED' },
    { path: '/ws', code: 'UPGRADE_REQUIRED' },
    { path: '/poll?stream=fat', code: 'BAD_STREAM' },
    { path: '/poll?since=-1', code: 'BAD_SINCE' },
    { path: '/media/nothing-here.png', code: 'NOT_FOUND' },
    { path: '/publish', code: 'UNAUTHORIZED' },
    { path: '/publish/media/a.png', method: 'POST', token: true, code: 'METHOD_NOT_ALLOWED' },
    {
      path: '/publish/media/a.png',
      method: 'PUT',
      token: true,
      headers: { 'x-content-sha256': '0'.repeat(64) },
      body: 'x',
      code: 'SHA256_MISMATCH',
    },
    { path: '/session', method: 'POST', body: '{', code: 'BAD_SESSION' },
    { path: '/vote', method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' }, code: 'BAD_VOTE', status: 415 },
    { path: '/vote', method: 'POST', body: '{}', headers: { 'content-type': 'application/json' }, code: 'BAD_VOTE' },
    {
      path: '/vote',
      method: 'POST',
      body: JSON.stringify({ key: 'q1~1', option: 'a', device: 'device-0123456789ab' }),
      headers: { 'content-type': 'application/json' },
      code: 'SESSION',
    },
  ];

  test('real refusals carry the catalogue status and body', async () => {
    const { edge } = suite;
    const answers = [];
    for (const { path, method = 'GET', headers = {}, body, token, code, status } of cases) {
      const auth = token ? { authorization: `Bearer ${edge.token}` } : {};
      const res = await fetch(`${edge.url}${path}`, { method, body, headers: { ...auth, ...headers }, redirect: 'manual' });
      const json = await res.json();
      answers.push({
        path,
        method,
        got: [res.status, json.error, typeof json.message],
        want: [status ?? edgeErrorEntry(code)?.status, code, 'string'],
      });
    }
    expect(answers.filter((a) => JSON.stringify(a.got) !== JSON.stringify(a.want))).toEqual([]);
  });
});
