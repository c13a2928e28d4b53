// The OSC send thread (local-server/src/osc/osc-send-thread.js, docs/how-to/connect-osc-tools.md#on-time-in-every-receiver): packets timed on
// the wall clock from a worker thread, cancellable, with each outcome reported; and the same core
// in the main thread when no worker can start, with nothing posted meanwhile lost. Real UDP.
import { startSendThread } from '../../../local-server/src/osc/osc-send-thread.js';
import { wallClock } from '../../../local-server/src/osc/osc-send-core.js';
import { arrivalReceiver, medianOf } from '../../support/osc-receivers.js';
import { waitFor } from '../../support/clients.js';
import { Message, encode } from 'node-osc';

// leadMs: how far ahead the first packet is due. switchedAt: when the main thread took over (the
// fallback case), or null. Packets due before it are sent late by design (kept, not lost), so only
// those due after it are judged on time.
async function exercise(thread, reports, { leadMs = 300, switchedAt = () => null } = {}) {
  const receiver = await arrivalReceiver();
  try {
    const packet = (n) => ({ key: `k${n}`, host: '127.0.0.1', port: receiver.port, bytes: encode(new Message('/t', n)) });
    const start = wallClock() + leadMs; // like a beat: known one lookahead before it sounds
    for (let n = 0; n < 6; n += 1) thread.post({ type: 'send', id: n + 1, at: start + n * 40, packets: [packet(n)] });
    thread.post({ type: 'cancel', id: 4 }); // n = 3 never goes
    thread.post({ type: 'send', id: 99, at: null, packets: [packet(99)] });
    await waitFor(() => receiver.received.filter((r) => r.args[0] !== 99).length >= 5, 5000, 'timed packets');
    // Every outcome reported (the thread's state, not a fixed wait: a loaded machine reports late).
    await waitFor(() => reports.filter((r) => r.type === 'result').length >= 6, 5000, 'every outcome reported');
    const timedArrivals = receiver.received.filter((r) => r.args[0] !== 99);
    expect(timedArrivals.map((r) => r.args[0])).toEqual([0, 1, 2, 4, 5]);
    const dueAt = (r) => start + r.args[0] * 40;
    const judged = timedArrivals.filter((r) => dueAt(r) > (switchedAt() ?? -Infinity) + 5);
    expect(judged.length).toBeGreaterThanOrEqual(3);
    const errors = judged.map((r) => r.at - dueAt(r));
    expect(Math.abs(medianOf(errors))).toBeLessThan(5); // a few ms, with room for a loaded machine
    expect(receiver.received[0].args[0]).toBe(99); // "now" went first
    expect(reports.filter((r) => r.type === 'result' && r.error === null)).toHaveLength(6);
  } finally {
    thread.close();
    receiver.close();
  }
}

test('a worker thread sends each packet at its time, drops a cancelled one, reports every outcome', async () => {
  const reports = [];
  const warnings = [];
  const thread = startSendThread((r) => reports.push(r), { warn: (m) => warnings.push(m) });
  await waitFor(() => thread.mode() === 'worker', 10_000, 'the send thread');
  await exercise(thread, reports);
  expect(thread.mode()).toBe('worker');
  expect(warnings).toEqual([]);
});

test('when no worker can start, the main thread sends instead, jobs posted meanwhile included, and says so', async () => {
  const reports = [];
  const warnings = [];
  let warnedAt = null;
  const warn = (m) => {
    warnings.push(m);
    warnedAt = wallClock();
  };
  const thread = startSendThread((r) => reports.push(r), { warn }, new URL('./no-such-worker.js', import.meta.url));
  // A worker that cannot load fails only after a moment (~0.4 s on a loaded CI machine, which once
  // made the first three packets late); the packets are due well after that.
  await exercise(thread, reports, { leadMs: 2000, switchedAt: () => warnedAt });
  expect(thread.mode()).toBe('main thread');
  expect(warnings.join('\n')).toMatch(/OSC: no send thread .*sending from the main thread/);
});
