// Rehearsal mode at the venue (docs/how-to/rehearse.md#rehearsal-mode), on a real show server: the full and
// the lean stream carry `"rehearsal": true` (and no vote, reaction window or sound) to real
// WebSocket and SSE viewers, and lose the field when it ends; OSC-in `/tutti/rehearsal i:0|1`
// switches it over real UDP and bad arguments are counted; the performance record has the
// actions with who made them, and the report shows the stretches.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Message } from 'node-osc';
import { startShow } from '../../support/show.js';
import { openSse, openWs, waitFor } from '../../support/clients.js';
import { writeRehearsalModeScore } from '../../support/rehearsal-mode-score.js';
import { readRecord } from '../../../local-server/src/record/record-reader.js';
import { buildStory } from '../../../local-server/src/report/record-story.js';
import { renderReport } from '../../../local-server/src/report/render-report.js';
import { rehearsalState, inRehearsal } from '#core/stream/rehearsal-state.js';
import { deriveLeanState } from '#core/stream/lean-state.js';

const recordDir = mkdtempSync(path.join(os.tmpdir(), 'tutti-rehearsal-record-'));
let show;
beforeAll(async () => {
  show = await startShow({ scorePath: writeRehearsalModeScore(), autoplay: false, recordDir, oscInPort: 0 });
}, 30_000);
afterAll(async () => {
  await show?.close();
  rmSync(recordDir, { recursive: true, force: true });
});

const post = (p, body, client) =>
  fetch(`${show.controlUrl}${p}`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-token', ...(client ? { 'x-tutti-client': client } : {}) },
    body: JSON.stringify(body),
  }).then((r) => r.json());
const badOsc = async () =>
  Number(/source="osc"\} (\d+)/.exec(await show.metrics.registry.getSingleMetricAsString('tutti_bad_input_total'))?.[1] ?? 0);

test('rehearsalState: the flag, no vote, reaction or sound; the lean state keeps it; the input is untouched', () => {
  const full = {
    transport: 'playing',
    position: { bar: 3 },
    view: { text: 'x' },
    audio: { cue: 1 },
    vote: { id: 'v' },
    react: { label: 'Applaud' },
    segment: { index: 8, bar: 3, beat: 1, beats: 4, at: 1, bpm: 120, step: 0, until: 64 },
    ahead: { 8: { until: 16, items: [{ i: 9, at: 2, audio: { cue: 2 } }] } },
  };
  const rehearsing = rehearsalState(full);
  expect(rehearsing).toMatchObject({ rehearsal: true, view: { text: 'x' }, ahead: full.ahead, segment: full.segment });
  for (const key of ['audio', 'vote', 'react']) expect(rehearsing).not.toHaveProperty(key);
  expect(full.vote).toEqual({ id: 'v' });
  expect(deriveLeanState(null, rehearsing).rehearsal).toBe(true);
  expect(inRehearsal(deriveLeanState(null, rehearsing))).toBe(true);
  expect(inRehearsal(full)).toBe(false);
  expect(inRehearsal(null)).toBe(false);
});

test('full and lean streams, WebSocket and SSE: "rehearsal": true while on, absent once off; OSC-in switches it; bad OSC counted', async () => {
  const full = await openWs(show.audienceUrl);
  const lean = await openWs(show.audienceUrl, { query: '?stream=lean' });
  const sse = await openSse(show.audienceUrl, { query: '?stream=lean' });
  try {
    await waitFor(() => full.tracker.state && lean.tracker.state && sse.tracker.state, 5000, 'three viewers');
    expect(lean.tracker.epoch).toMatch(/~lean$/);
    const on = await post('/api/rehearsal-mode', { on: true }, 'console');
    expect(on.rehearsal).toBe(true);
    await waitFor(
      () => full.tracker.state.rehearsal && lean.tracker.state.rehearsal && sse.tracker.state.rehearsal,
      5000,
      'the flag on every stream',
    );
    // Playing through the bell (bar 1) and the prompt (bar 6): no sound and no vote reach a viewer.
    await post('/api/transport', { action: 'play' });
    await waitFor(() => show.votes.status()?.phase === 'open', 15_000, 'the prompt open for the console');
    expect(full.tracker.envelopes.some((e) => JSON.stringify(e.data).includes('"vote"'))).toBe(false);
    expect(full.tracker.state.audio).toBeUndefined();
    expect(full.tracker.state.rehearsal).toBe(true);

    // OSC-in over real UDP: off, on; bad arguments are counted and change nothing.
    const osc = new Client('127.0.0.1', show.status().osc.in);
    try {
      const bad = await badOsc();
      await osc.send(new Message('/tutti/rehearsal', 0));
      await waitFor(() => !show.show.rehearsal() && full.tracker.state.rehearsal === undefined, 5000, 'OSC off');
      await waitFor(() => lean.tracker.state.rehearsal === undefined && sse.tracker.state.rehearsal === undefined, 5000, 'off on lean');
      await osc.send(new Message('/tutti/rehearsal', 1));
      await waitFor(() => show.show.rehearsal() && lean.tracker.state.rehearsal === true, 5000, 'OSC on');
      await osc.send(new Message('/tutti/rehearsal', 7));
      await osc.send(new Message('/tutti/rehearsal', 'on'));
      await osc.send(new Message('/tutti/rehearsal'));
      await waitFor(async () => (await badOsc()) === bad + 3, 5000, 'three bad OSC messages counted');
      expect(show.show.rehearsal()).toBe(true);
    } finally {
      await osc.close();
    }
    const logged = show.log
      .recent()
      .map((e) => e.msg)
      .filter((m) => m.startsWith('rehearsal mode'));
    expect(logged).toEqual([
      'rehearsal mode on: the audience sees "the show starts soon" (console)',
      'rehearsal mode off: the audience sees the show (OSC-in)',
      'rehearsal mode on: the audience sees "the show starts soon" (OSC-in)',
    ]);
    // The prompt that opened during rehearsal closes for the console only: its result is recorded, marked.
    await waitFor(() => show.votes.status()?.phase === 'closed', 15_000, 'the prompt closed');
    expect(show.votes.status().rehearsal).toBe(true);
    const off = await post('/api/rehearsal-mode', { on: false });
    expect(off.rehearsal).toBe(false);
    await waitFor(() => full.tracker.state.rehearsal === undefined && sse.tracker.state.rehearsal === undefined, 5000, 'off');
    // Asking for what is already so changes nothing and is not logged or recorded again.
    await post('/api/rehearsal-mode', { on: false });
  } finally {
    full.ws.terminate();
    lean.ws.terminate();
    sse.close();
  }

  // The record: the actions with who made them, the flag in the envelopes, the stretches in the report.
  await show.recorder.sample();
  const dir = show.recorder.dir;
  await show.close();
  const { entries } = readRecord(dir);
  const acts = entries.filter((e) => e.k === 'act' && e.kind === 'rehearsal').map((e) => `${e.what} (${e.by})`);
  expect(acts).toEqual([
    'rehearsal mode on (console)',
    'rehearsal mode off (OSC-in)',
    'rehearsal mode on (OSC-in)',
    'rehearsal mode off (control API)',
  ]);
  expect(entries.find((e) => e.k === 'vote')).toMatchObject({ id: 'way', rehearsal: true, total: 0 });
  const story = buildStory(entries);
  expect(story.rehearsals).toHaveLength(2);
  for (const r of story.rehearsals) expect(r.to).toBeGreaterThan(r.from);
  const html = renderReport(story);
  expect(html.match(/class="rehearsal"/g)).toHaveLength(2);
  expect(html).toContain('rehearsal mode on');
  expect(html).toContain('in rehearsal mode');
}, 60_000);
