// Every error the venue sends is in the catalogue (core/protocol/http-errors.js) and goes out
// through one helper (local-server/src/routes/send-error.js): docs/reference/errors.md#venue-errors.
// The source scan catches a code written inline or missing from the catalogue; the real-server
// requests check that the status and body on the wire are the catalogue's.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VENUE_ERRORS, AUDIENCE_ERRORS, venueError } from '#core/protocol/http-errors.js';
import { startShowServer } from '../../../local-server/src/server.js';
import { sendEngineRefusal, sendError } from '../../../local-server/src/routes/send-error.js';
import { anchorsOf } from '../../../tools/docs/markdown.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const serverDir = join(root, 'local-server/src');
const ERRORS_PAGE = 'docs/reference/errors.md';
const errorsPage = readFileSync(join(root, ERRORS_PAGE), 'utf8');

/** @returns {string[]} every .js file under dir */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.js') ? [join(dir, entry.name)] : [],
  );
}
const files = sources(serverDir).map((path) => ({ name: relative(root, path), text: readFileSync(path, 'utf8') }));

/** The argument text of every `sendError(` call (up to its matching parenthesis). */
function sendErrorCalls(text) {
  const calls = [];
  for (let at = text.indexOf('sendError('); at !== -1; at = text.indexOf('sendError(', at + 1)) {
    let depth = 0;
    let end = at + 'sendError'.length;
    for (; end < text.length; end++) {
      if (text[end] === '(') depth++;
      else if (text[end] === ')' && --depth === 0) break;
    }
    calls.push(text.slice(at, end + 1));
  }
  return calls;
}

/** Responses with a 4xx/5xx status that are not errors of the catalogue, each with its reason. */
const NOT_ERROR_BODIES = [
  // Vote replies ({"type":"voted","ok":false,…}) and the tap's empty 409 (docs/reference/audience-protocol.md#audience-voices).
  ['local-server/src/routes/vote.js', /\.code\(reactions\.tap\(n, 'venue'\) \? 204 : 409\)/],
  // An unsatisfiable Range: 416 with Content-Range and no body (RFC 9110).
  ['local-server/src/routes/static.js', /\.code\(416\)/],
];

test('every code the venue sends is in the catalogue, with a status it lists', () => {
  const sent = new Set();
  for (const { name, text } of files) {
    for (const call of sendErrorCalls(text)) {
      if (name.endsWith('send-error.js')) continue;
      const codes = [...call.matchAll(/'([A-Z][A-Z_]+)'/g)].map((m) => m[1]);
      const dynamic = /sendError\(\s*[\w.()'; -]+,\s*(error\.code|code)\b/.test(call);
      expect({ name, call, codes: codes.length > 0 || dynamic }).toEqual({ name, call, codes: true });
      for (const code of codes) {
        expect({ code, catalogued: Boolean(venueError(code)) }).toEqual({ code, catalogued: true });
        sent.add(code);
      }
      const status = /status:\s*(\d+)/.exec(call);
      if (status) for (const code of codes) expect(venueError(code)?.alsoStatus).toContain(Number(status[1]));
    }
  }
  // Codes that reach sendError through a variable: the engine's refusals, the control body parser's.
  const engine = [...sources(join(root, 'core/engine')), ...sources(join(root, 'core/score'))]
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n');
  // (The rehearsal's place reader, core/engine/start-point.js, returns `{ error: CODE }` that becomes an EngineError.)
  const thrown = [
    ...engine.matchAll(/new EngineError\('([A-Z_]+)'/g),
    ...engine.matchAll(/error: '([A-Z_]+)'/g),
    ...files.flatMap((f) => [...f.text.matchAll(/code: '([A-Z_]+)'/g), ...f.text.matchAll(/new EngineError\('([A-Z_]+)'/g)]),
  ];
  expect(thrown.length).toBeGreaterThan(2);
  for (const [, code] of thrown) {
    expect({ code, catalogued: Boolean(venueError(code)) }).toEqual({ code, catalogued: true });
    sent.add(code);
  }
  // And the catalogue holds no code the venue never sends (the audience codes are the edge's too).
  for (const code of Object.keys(VENUE_ERRORS)) if (code !== 'ERROR') expect({ code, sent: sent.has(code) }).toEqual({ code, sent: true });
});

test('no venue error is written inline: no error body, no error status outside the helper', () => {
  const inline = [];
  for (const { name, text } of files) {
    if (name.endsWith('send-error.js')) continue;
    text.split('\n').forEach((line, i) => {
      if (/\berror:\s*['"`][A-Z][A-Z_]+['"`]/.test(line)) inline.push(`${name}:${i + 1}: ${line.trim()}`);
      if (/\.code\(\s*(?:[45]\d\d|status|code)\b/.test(line) && !NOT_ERROR_BODIES.some(([f, re]) => f === name && re.test(line)))
        inline.push(`${name}:${i + 1}: ${line.trim()}`);
      if (/\.code\(\s*$/.test(line) || /^\s*\.code\([45]\d\d\)/.test(line)) inline.push(`${name}:${i + 1}: ${line.trim()}`);
    });
  }
  expect(inline).toEqual([]);
});

test('every catalogued venue code is documented on the docs page its entry names, under the anchor it names', () => {
  for (const [code, entry] of Object.entries({ ...AUDIENCE_ERRORS, ...VENUE_ERRORS })) {
    // Without a `doc`, the code is on the errors page; with one (docs/…/page.md#anchor), there or on the errors page.
    const page = 'doc' in entry ? entry.doc.split('#') : [ERRORS_PAGE];
    expect({ code, doc: /^docs\/.+\.md$/.test(page[0]) && page.length <= 2 }).toEqual({ code, doc: true });
    const text = readFileSync(join(root, page[0]), 'utf8');
    expect({ code, documented: text.includes(`\`${code}\``) || errorsPage.includes(`\`${code}\``) }).toEqual({ code, documented: true });
    if (page[1] !== undefined) expect({ code, section: anchorsOf(text).has(page[1]) }).toEqual({ code, section: true });
  }
});

test('the helper refuses what the catalogue does not say, except an engine refusal, which is a 400 whatever its code', () => {
  const reply = () => {
    const sent = { headers: {} };
    const r = {
      code: (status) => Object.assign(sent, { status }) && r,
      header: (name, value) => (sent.headers[name] = value) && r,
      send: (body) => Object.assign(sent, { body }) && r,
    };
    return { r, sent };
  };
  expect(() => sendError(reply().r, 'NO_SUCH_CODE')).toThrow(/not in the error catalogue/);
  expect(() => sendError(reply().r, 'BAD_TAP', { status: 415 })).toThrow(/not answered with 415/);
  const vote = reply();
  sendError(vote.r, 'BAD_VOTE', { status: 415, headers: { 'x-why': 'type' } });
  expect(vote.sent).toEqual({
    status: 415,
    headers: { 'x-why': 'type' },
    body: { error: 'BAD_VOTE', message: 'send the vote as application/json' },
  });
  // A refusal a newer engine adds before the catalogue lists it: still a 400 with its code, not a 500.
  const refusal = reply();
  sendEngineRefusal(refusal.r, { code: 'BAD_SOMETHING_NEW', message: 'no such thing' });
  expect(refusal.sent).toEqual({ status: 400, headers: {}, body: { error: 'BAD_SOMETHING_NEW', message: 'no such thing' } });
});

describe('on a real server, the status and body are the catalogue’s', () => {
  const token = 'catalogue-test-token';
  let server;
  beforeAll(async () => {
    server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token });
  });
  afterAll(() => server?.close());

  /** The wire status is written out (docs/reference/errors.md#audience-errors) so a changed catalogue entry fails too. */
  const expectCatalogued = async (res, code, wireStatus, { message = venueError(code)?.message } = {}) => {
    const body = await res.json();
    expect({ status: res.status, body }).toEqual({ status: wireStatus, body: { error: code, message } });
    expect([venueError(code)?.status, ...(venueError(code)?.alsoStatus ?? [])]).toContain(wireStatus);
  };
  const control = (path, init = {}) =>
    fetch(`${server.controlUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });

  test('control API: UNAUTHORIZED, BAD_BODY, BAD_POSITION, BAD_JSON, EDGE_OFF', async () => {
    const anonymous = await fetch(`${server.controlUrl}/api/status`);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    await expectCatalogued(anonymous, 'UNAUTHORIZED', 401);
    const post = (path, body) => control(path, { method: 'POST', body });
    await expectCatalogued(await post('/api/transport', '{"action":"seek"}'), 'BAD_BODY', 400);
    await expectCatalogued(await post('/api/transport', '{"action":"seek","bar":9999}'), 'BAD_POSITION', 400, {
      message: expect.stringMatching(/^bar must be an integer from 1 to \d+$/),
    });
    await expectCatalogued(await post('/api/tempo', '{"bpm"'), 'BAD_JSON', 400, {
      message: expect.stringMatching(/^body is not valid JSON: /),
    });
    await expectCatalogued(await post('/api/edge/resume'), 'EDGE_OFF', 409);
    const unknownField = await (await post('/api/tempo', '{"bpm":100,"x":1}')).json();
    expect(unknownField).toEqual({ error: 'FST_ERR_VALIDATION', message: expect.stringMatching(/^invalid body: /) });
  });

  test('audience listener: BAD_VOTE (400 and 415), BAD_TAP, METHOD_NOT_ALLOWED, UPGRADE_REQUIRED, NOT_FOUND', async () => {
    const json = { 'content-type': 'application/json' };
    const audience = (path, init) => fetch(`${server.audienceUrl}${path}`, init);
    await expectCatalogued(
      await audience('/vote', { method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' } }),
      'BAD_VOTE',
      415,
    );
    const badVote = await audience('/vote', { method: 'POST', body: '{"key":1}', headers: json });
    await expectCatalogued(badVote, 'BAD_VOTE', 400, { message: expect.any(String) });
    await expectCatalogued(await audience('/tap', { method: 'POST', body: '{"n":99}', headers: json }), 'BAD_TAP', 400);
    const post = await audience('/poll', { method: 'POST' });
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    await expectCatalogued(post, 'METHOD_NOT_ALLOWED', 405);
    await expectCatalogued(await audience('/ws'), 'UPGRADE_REQUIRED', 426);
    await expectCatalogued(await audience('/media/nothing.wav'), 'NOT_FOUND', 404);
  });
});
