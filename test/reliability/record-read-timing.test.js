// A long record opened in the console does not stall the show (issue 40 item 9): while the report
// of a 30 MB record is rendered and the replay pages through it as it grows, beats still reach an
// OSC receiver (on its own thread, over real UDP) and a /ws viewer when they sound. The lateness
// of the same show's beats is compared with and without the record being read, in one run, so a
// slow or loaded machine moves both alike. Reading it on the event loop took ~0.5 s a request
// here and made the beats of those moments up to ~200 ms late. Runs in band (npm run test:timing).
import { afterAll, expect, test } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startShow } from '../support/show.js';
import { openWs, waitFor } from '../support/clients.js';
import { threadReceiver, medianOf, wallClock } from '../support/osc-receivers.js';
import { writeBigRecord } from '../support/big-record.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-record-timing-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Beats measured in each phase (240 bpm: 4 a second). */
const BEATS = 14;
/** How much later the beats may be, at the median, while the record is read. Failure: ~100–250 ms. */
const SHIFT_MS = 60;

/** The lateness (ms) of each beat in [from, to) of `soundsAt`, for OSC arrivals and /ws arrivals. */
function latenessIn(soundsAt, osc, ws, from, to) {
  const late = (arrivals) =>
    arrivals.flatMap(({ key, at }) => {
      const sounds = soundsAt.get(key);
      return sounds !== undefined && sounds >= from && sounds < to ? [at - sounds] : [];
    });
  return {
    osc: late(osc.filter((r) => r.address === '/tutti/beat').map((r) => ({ key: `${r.args[0]}:${r.args[1]}`, at: r.at }))),
    ws: late(ws),
  };
}

test('beats stay on time while a long record is read for its report and replay', async () => {
  const big = writeBigRecord(root, { mb: 30 });
  const receiver = await threadReceiver();
  const server = await startShow({
    autoplay: false,
    now: wallClock,
    recordDir: root,
    oscTargets: [{ host: '127.0.0.1', port: receiver.port }],
  });
  const viewer = await openWs(server.audienceUrl);
  /** @type {Map<string, number>} "bar:beat" → when it sounds */
  const soundsAt = new Map();
  /** @type {Array<{ key: string, at: number }>} /ws beats as the viewer got them */
  const wsBeats = [];
  server.show.events.on('beat', (beat) => soundsAt.set(`${beat.bar}:${beat.beat}`, beat.at));
  viewer.ws.on('message', () => {
    const p = viewer.tracker.state?.position;
    const key = p && `${p.bar}:${p.beat}`;
    if (p && viewer.tracker.state.transport === 'playing' && wsBeats.at(-1)?.key !== key) wsBeats.push({ key, at: wallClock() });
  });
  const control = (url) => fetch(`${server.controlUrl}${url}`, { headers: { authorization: 'Bearer test-token' } });
  const beatsSince = (t) => [...soundsAt.values()].filter((at) => at >= t && at < wallClock()).length;
  try {
    server.show.engine.setTempo(240);
    server.show.engine.play();
    const quietFrom = wallClock() + 500; // past the start's count
    await waitFor(() => beatsSince(quietFrom) >= BEATS, 15_000, 'beats without reading');
    const quietTo = wallClock();

    // The console opens the long record: its report, and replay pages of it while lines are added.
    let reading = true;
    let reads = 0;
    const readLoop = (async () => {
      for (let i = 0; reading && i < 200; i += 1) {
        const report = await control(`/api/records/${big.id}/report`);
        expect(report.status).toBe(200);
        await report.text();
        fs.appendFileSync(big.open, `${JSON.stringify({ t: Date.now(), k: 'log', level: 'warn', msg: `line ${i}` })}\n`);
        const page = await control(`/api/records/${big.id}/entries?from=${big.lines}&limit=50`);
        expect(page.status).toBe(200);
        expect((await page.json()).total).toBe(big.lines + i + 1);
        reads += 1;
      }
    })();
    const busyFrom = wallClock() + 300; // beats announced before the first request are not measured
    await waitFor(() => beatsSince(busyFrom) >= BEATS && reads >= 3, 30_000, 'beats while reading');
    const busyTo = wallClock();
    reading = false;
    await readLoop;

    await waitFor(async () => (await receiver.received()).length > 0, 2000, 'OSC packets');
    const osc = await receiver.received();
    const quiet = latenessIn(soundsAt, osc, wsBeats, quietFrom, quietTo);
    const busy = latenessIn(soundsAt, osc, wsBeats, busyFrom, busyTo);
    const shift = { osc: medianOf(busy.osc) - medianOf(quiet.osc), ws: medianOf(busy.ws) - medianOf(quiet.ws) };
    process.stdout.write(
      `record read: ${reads} reads; median lateness shift OSC ${shift.osc.toFixed(1)} ms, /ws ${shift.ws.toFixed(1)} ms; worst OSC quiet ${Math.max(...quiet.osc).toFixed(1)} busy ${Math.max(...busy.osc).toFixed(1)}, /ws quiet ${Math.max(...quiet.ws).toFixed(1)} busy ${Math.max(...busy.ws).toFixed(1)}\n`,
    );
    expect(busy.osc.length).toBeGreaterThanOrEqual(BEATS - 2);
    expect(busy.ws.length).toBeGreaterThanOrEqual(BEATS - 2);
    expect(shift.osc).toBeLessThan(SHIFT_MS);
    expect(shift.ws).toBeLessThan(SHIFT_MS);
  } finally {
    server.show.engine.stop();
    viewer.ws.close();
    await server.close();
    await receiver.close();
  }
}, 90_000);
