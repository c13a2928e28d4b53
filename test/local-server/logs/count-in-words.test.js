// Issue 40.18: a start with a count-in was logged (and shown in the record's report) as
// "start from printed bar 5 after 1 bar of count-in → stopped at bar 6 beat 1", which reads as if
// the show had stopped. While the count-in runs, the log line and the report say it counts in and
// then plays from that bar. A real show server, its control API and its performance record.

import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startShow } from '../../support/show.js';
import { writeRehearsalScore } from '../../support/rehearsal-score.js';
import { readRecord } from '../../../local-server/src/record/record-reader.js';
import { buildStory } from '../../../local-server/src/report/record-story.js';
import { renderReport } from '../../../local-server/src/report/render-report.js';

const recordDir = mkdtempSync(path.join(os.tmpdir(), 'tutti-count-in-words-'));
let show;

beforeAll(async () => {
  show = await startShow({ scorePath: writeRehearsalScore(), autoplay: false, recordDir });
});

afterAll(async () => {
  await show?.close();
  rmSync(recordDir, { recursive: true, force: true });
});

async function call(method, url, body) {
  const res = await fetch(`${show.controlUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${show.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.status).toBe(200);
  return res.json();
}

test('a start with a count-in is logged and reported as a start, not as a stop', async () => {
  // Printed bar 5 (1st time) is bar 5 of the rehearsal score; one bar of 4/4 is 4 clicks.
  const started = await call('POST', '/api/start', { from: { printedBar: 5 }, countInBars: 1 });
  expect(started.countIn).toMatchObject({ beats: 4 });
  await call('POST', '/api/transport', { action: 'stop' });
  await call('POST', '/api/start', { from: { bar: 3 } }); // no count-in: plays at once

  const lines = (await call('GET', '/api/log')).entries.map((e) => e.msg).filter((m) => m.startsWith('transport: start'));
  expect(lines[0]).toBe(
    'transport: start from printed bar 5 after 1 bar of count-in → counting in 4 beats, then playing from bar 5 beat 1 (control API)',
  );
  expect(lines[0]).not.toMatch(/stopped/);
  expect(lines[1]).toMatch(/^transport: start from bar 3 → playing at bar 3 beat \d \(control API\)$/);

  await show.recorder.sample();
  const dir = show.recorder.dir;
  await call('POST', '/api/transport', { action: 'stop' });
  const { entries } = readRecord(dir);
  const act = entries.find((e) => e.k === 'act' && /count-in/.test(e.what));
  expect(act.after).toMatchObject({ transport: 'stopped', bar: 5, beat: 1, countIn: 4 });
  const html = renderReport(buildStory(entries));
  expect(html).toContain('counting in 4 beats, then playing from bar 5 beat 1, 120 bpm');
  expect(html).not.toContain('stopped at bar 5 beat 1');
});
