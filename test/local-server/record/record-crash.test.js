// A crash-resumed show continues the same performance record (docs/how-to/record-and-replay.md#the-performance-record)
// : `tutti serve` killed with SIGKILL mid-show, the same command again; the resume file
// names the record, the plain chunk the crash left (a torn last line included) is gzipped as it
// is, and the report reads both segments with the outage between them. Real processes.
import { afterAll, expect, test } from '@jest/globals';
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '../../support/clients.js';
import { serveProcesses } from '../../support/serve-process.js';
import { readRecord } from '../../../local-server/src/record/record-reader.js';
import { reportHtml } from '../../../local-server/src/report/report-html.js';

const token = 'record-crash-test-token';
const processes = serveProcesses({ token, prefix: 'tutti-record-crash-' });
const { serve } = processes;
const records = path.join(processes.stateHome, 'tutti', 'records');

afterAll(() => processes.cleanUp());

const api = (control, p, body) =>
  fetch(`${control}${p}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${token}` },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json());

const stop = (child, signal) => {
  const exited = new Promise((r) => child.once('exit', (code) => r(code)));
  child.kill(signal);
  return exited;
};

const plainChunk = (dir) => readdirSync(dir).find((f) => f.endsWith('.jsonl'));
const lines = (dir) => readFileSync(path.join(dir, plainChunk(dir)), 'utf8');

test('SIGKILL mid-show, the same command again: the same record goes on, torn line and all', async () => {
  let show = await serve();
  expect(path.dirname(show.record)).toBe(records);
  await api(show.control, '/api/transport', { action: 'seek', bar: 7 });
  await api(show.control, '/api/transport', { action: 'play' });
  await waitFor(() => lines(show.record).includes('"what":"play"'), 5000, 'the play action on disk');
  // The resume file names the record (and says playing) before the crash.
  const stateFile = path.join(processes.stateHome, 'tutti', 'show-state.json');
  await waitFor(
    () =>
      existsSync(stateFile) &&
      readFileSync(stateFile, 'utf8').includes(`"record":"${path.basename(show.record)}"`) &&
      JSON.parse(readFileSync(stateFile, 'utf8')).point.transport === 'playing',
    5000,
    'the resume file',
  );
  await stop(show.child, 'SIGKILL');
  // A write the crash cut in half.
  appendFileSync(path.join(show.record, plainChunk(show.record)), '{"k":"env","e":{"v":1,"type":"del');

  const first = show.record;
  show = await serve();
  expect(show.output()).toMatch(/resumed the show after an unclean stop/);
  expect(show.record).toBe(first);
  await api(show.control, '/api/transport', { action: 'pause' });
  await waitFor(() => lines(show.record).includes('"what":"pause"'), 5000, 'the pause on disk');
  expect(await stop(show.child, 'SIGTERM')).toBe(0);

  expect(readdirSync(records)).toEqual([path.basename(first)]);
  expect(readdirSync(first).sort()).toEqual(['0001.jsonl.gz', '0002.jsonl.gz', 'summary.json']);
  const { entries, torn } = readRecord(first);
  expect(torn).toBe(1);
  const opens = entries.filter((e) => e.k === 'open');
  expect(opens.map((e) => e.resumed)).toEqual([false, true]);
  expect(entries.filter((e) => e.k === 'act').map((e) => e.what)).toEqual(['seek to bar 7 beat 1', 'play', 'pause']);
  expect(JSON.parse(readFileSync(path.join(first, 'summary.json'), 'utf8'))).toMatchObject({ resumes: 1, endedAt: expect.any(Number) });

  const { story, html } = reportHtml(first);
  expect(story.resumes).toBe(1);
  expect(story.outages).toHaveLength(1);
  expect(story.outages[0].to).toBe(opens[1].t);
  expect(html).toMatch(/server down \(crash\)/);
  expect(html).toMatch(/1 torn line\(s\) skipped/);
}, 60_000);
