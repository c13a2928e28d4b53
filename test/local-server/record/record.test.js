// The performance record (docs/how-to/record-and-replay.md#the-performance-record) of a real show server: real
// WebSocket viewers who vote, the control API as the console and as a script, OSC-in over real
// UDP. Everything the server sent and who made each change is in the record, gzipped at a
// clean stop, and `tutti report` renders it.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Message } from 'node-osc';
import { startShow } from '../../support/show.js';
import { openWs, waitFor } from '../../support/clients.js';
import { writeVoteScore, deviceId } from '../../support/vote-score.js';
import { readRecord, listRecords } from '../../../local-server/src/record/record-reader.js';
import { runCli } from '../../../local-server/src/cli.js';

const recordDir = mkdtempSync(path.join(os.tmpdir(), 'tutti-record-'));
let show;
let record;
let viewers = [];

const control = (p, body, client) =>
  fetch(`${show.controlUrl}${p}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: 'Bearer test-token', ...(client ? { 'x-tutti-client': client } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

beforeAll(async () => {
  show = await startShow({ scorePath: writeVoteScore(), autoplay: false, recordDir, oscInPort: 0 });
  viewers = [await openWs(show.audienceUrl), await openWs(show.audienceUrl)];
  await control('/api/transport', { action: 'play' }, 'console');
  const open = await waitFor(() => viewers[0].tracker.state?.vote, 5000, 'the prompt to open');
  viewers.forEach((v, i) => v.ws.send(JSON.stringify({ type: 'vote', key: open.key, option: 'd', device: deviceId(i) })));
  await waitFor(() => viewers[0].tracker.state?.vote?.branch, 10_000, 'the result and its branch');
  await waitFor(() => viewers[0].tracker.state?.section?.mark === 'D', 10_000, 'the branch to D');
  await control('/api/tempo', { bpm: 200 });
  await control('/api/transport', { action: 'pause' }, 'console');
  const osc = new Client('127.0.0.1', show.status().osc.in);
  await osc.send(new Message('/tutti/seek', 5, 1));
  await waitFor(() => viewers[0].tracker.state?.position?.bar === 5, 5000, 'the OSC seek');
  await osc.close();
  await show.recorder.sample();
  const dir = show.recorder.dir;
  for (const v of viewers) v.ws.terminate();
  await show.close();
  record = { dir, ...readRecord(dir) };
}, 60_000);

afterAll(() => rmSync(recordDir, { recursive: true, force: true }));

test('the record holds every envelope sent, each action with who made it, the vote and the figures', () => {
  const { entries, torn } = record;
  expect(torn).toBe(0);
  expect(entries[0]).toMatchObject({ k: 'open', resumed: false, score: { id: 'votes' } });
  expect(entries.at(-1)).toMatchObject({ k: 'close', reason: 'stop' });
  // The envelopes are the stream's, in order: a snapshot, then seq + 1 each time.
  const envelopes = entries.filter((e) => e.k === 'env').map((e) => e.e);
  expect(envelopes[0].type).toBe('snapshot');
  envelopes.slice(1).forEach((e, i) => expect(e.seq).toBe(envelopes[i].seq + 1));
  expect(envelopes.at(-1).seq).toBe(show.show.stream.seq());

  const actions = entries.filter((e) => e.k === 'act').map(({ by, kind, what }) => ({ by, kind, what }));
  expect(actions).toEqual([
    { by: 'console', kind: 'transport', what: 'play' },
    { by: 'vote', kind: 'branch', what: expect.stringMatching(/^branch at bar 5: d won "path"$/) },
    { by: 'control API', kind: 'tempo', what: '200 bpm' },
    { by: 'console', kind: 'transport', what: 'pause' },
    { by: 'OSC-in', kind: 'transport', what: 'seek to bar 5 beat 1' },
  ]);
  expect(entries.find((e) => e.k === 'act' && e.by === 'OSC-in').after).toMatchObject({ transport: 'paused', bar: 5, beat: 1, tempo: 200 });

  const [vote, ...more] = entries.filter((e) => e.k === 'vote');
  expect(more).toEqual([]);
  expect(vote).toMatchObject({ id: 'path', q: 'Which way?', total: 2, winner: 'd', branch: { bar: 5 } });
  expect(vote.options.map((o) => [o.id, o.count, o.venue])).toEqual([
    ['c', 0, 0],
    ['d', 2, 2],
    ['stay', 0, 0],
  ]);

  const sample = entries.filter((e) => e.k === 'sample').at(0);
  expect(sample.viewers).toMatchObject({ ws: 2, sse: 0, edge: null });
  expect(sample.joins).toBe(2);
});

test('a clean stop gzips every chunk and the list says when, what and how long', () => {
  const files = readdirSync(record.dir).sort();
  expect(files).toEqual(['0001.jsonl.gz', 'summary.json']);
  expect(record.bytes.disk).toBeLessThan(record.bytes.json / 3);
  const [listed] = listRecords(recordDir);
  expect(listed).toMatchObject({ id: path.basename(record.dir), score: { id: 'votes', title: 'Votes' }, resumes: 0 });
  expect(listed.endedAt).toBeGreaterThanOrEqual(listed.startedAt);
  expect(listed.durationMs).toBe(listed.endedAt - listed.startedAt);
  expect(JSON.parse(readFileSync(path.join(record.dir, 'summary.json'), 'utf8')).endedAt).toBe(listed.endedAt);
});

test('tutti report writes one offline HTML file of the newest record; a missing record is one message and exit 1', async () => {
  const out = path.join(recordDir, 'report.html');
  const said = [];
  const code = await runCli(['report', '--record-dir', recordDir, '--out', out], {
    out: (s) => said.push(s),
    err: (s) => said.push(s),
    env: {},
  });
  expect(code).toBe(0);
  expect(said.join('\n')).toMatch(/^Wrote .*report\.html \(\d+ KB\): "Votes", \d+:\d\d recorded, 5 actions, 1 votes$/);
  const html = readFileSync(out, 'utf8');
  expect(html).toMatch(/<title>Tutti performance · Votes<\/title>/);
  expect(html).toMatch(/Which way\?/);
  expect(html).toMatch(/OSC-in/);
  expect(html).not.toMatch(/(src|href)="https?:|<link\b|<script\b/i);

  const errors = [];
  const io = { out: () => {}, err: (s) => errors.push(s), env: {} };
  expect(await runCli(['report', path.join(recordDir, 'nope')], io)).toBe(1);
  expect(errors.pop()).toMatch(/^tutti report: .*nope is not a performance record: no such folder$/);
  expect(await runCli(['report', '--record-dir', path.join(recordDir, 'empty')], io)).toBe(1);
  expect(errors.pop()).toMatch(/^tutti report: no performance records in .*empty/);
  expect(await runCli(['report', '--bogus'], io)).toBe(2);
  expect(errors.pop()).toMatch(/unknown flag --bogus/);
  expect(existsSync(path.join(recordDir, 'nope'))).toBe(false);
});

test('the console lists the records and serves a report; a bad id is 404 and the token is needed', async () => {
  const next = await startShow({ recordDir, autoplay: false });
  try {
    const get = (p, auth = true) => fetch(`${next.controlUrl}${p}`, { headers: auth ? { authorization: 'Bearer test-token' } : {} });
    const { records } = await (await get('/api/records')).json();
    expect(records.map((r) => r.id)).toEqual([next.recorder.id, path.basename(record.dir)]);
    expect(records[0]).toMatchObject({ endedAt: null, score: { id: 'demo' } });
    expect(records[1]).toMatchObject({ score: { title: 'Votes' }, durationMs: expect.any(Number), bytes: expect.any(Number) });
    expect(records[1]).not.toHaveProperty('dir');
    const report = await get(`/api/records/${records[1].id}/report`);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await report.text()).toMatch(/Which way\?/);
    expect((await get('/api/records/20260101-000000-zzzz/report')).status).toBe(404);
    expect((await get('/api/records/..%2F..%2Fetc/report')).status).toBe(404);
    expect((await get('/api/records', false)).status).toBe(401);
  } finally {
    await next.close();
  }
});
