// Beats while the score engraves (docs/reference/osc.md#beats-while-the-score-engraves): the OSC
// send thread stops the engraving process a few ms before each timed packet and lets it go on
// right after. A real busy process (test/support/busy-process.js) shows the stretch it was
// stopped ending as each packet reaches it; recorded signals show the holds end on cancel, on a
// new process and on close. Real UDP, real worker thread, real signals.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Message, encode } from 'node-osc';
import { HOLD_LEAD_MS, createHoldStill } from '../../../local-server/src/osc/hold-still.js';
import { createSendCore, wallClock } from '../../../local-server/src/osc/osc-send-core.js';
import { startSendThread } from '../../../local-server/src/osc/osc-send-thread.js';
import { waitFor } from '../../support/clients.js';

const BUSY = fileURLToPath(new URL('../../support/busy-process.js', import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const packet = (port, n) => ({ key: `k${n}`, host: '127.0.0.1', port, bytes: encode(new Message('/t', n)) });
/** The process's state letter (R running, S sleeping, T stopped): Linux /proc. */
const stateOf = (pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0];

async function startBusy() {
  const child = fork(BUSY, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const { port } = await new Promise((resolve) => child.once('message', resolve));
  const report = () =>
    new Promise((resolve) => {
      child.once('message', resolve);
      child.send('report');
    });
  return { child, port, report };
}

test('a busy process is stopped before each timed packet and goes on as it is sent', async () => {
  const busy = await startBusy();
  const thread = startSendThread(() => {}, { warn: () => {} });
  try {
    await waitFor(() => thread.mode() === 'worker', 10_000, 'the send thread');
    thread.post({ type: 'hold-still', pids: [/** @type {number} */ (busy.child.pid)] });
    const start = wallClock() + 300;
    for (let n = 0; n < 3; n += 1) thread.post({ type: 'send', id: n + 1, at: start + n * 100, packets: [packet(busy.port, n)] });
    await sleep(start + 300 - wallClock());
    const { gaps, arrivals } = await busy.report();
    expect(arrivals).toHaveLength(3);
    for (const arrived of arrivals) {
      // The stretch it was held (~5 ms), ended by the send: the packet is read 0–4 ms later, once
      // the process has its CPU back and the slice it was stopped in is over (or just before the
      // stretch's end is seen, when it went on between two slices).
      const held = gaps.filter(([from, to]) => arrived - to > -1 && arrived - to < 8 && to - from >= 2.5);
      expect(held).toHaveLength(1);
    }
    expect(stateOf(busy.child.pid)).not.toBe('T'); // going on after the last one
  } finally {
    thread.close();
    busy.child.kill();
  }
});

/** A send core whose holds are recorded, not signalled; packets go to a port nobody reads. */
function recordedCore() {
  /** @type {Array<[number, string]>} */
  const signals = [];
  const core = createSendCore(
    () => {},
    createHoldStill((pid, name) => signals.push([pid, name])),
  );
  const send = (id, at) => core.handle({ type: 'send', id, at, packets: [packet(9, id)] });
  return { core, signals, send };
}

test('a cancelled send, a new engraving process and closing each let the held process go on', async () => {
  const { core, signals, send } = recordedCore();
  try {
    core.handle({ type: 'hold-still', pids: [4242] });
    send(1, wallClock() + HOLD_LEAD_MS + 40);
    await waitFor(() => signals.length === 1, 2000, 'the hold');
    expect(signals).toEqual([[4242, 'SIGSTOP']]);
    core.handle({ type: 'cancel', id: 1 });
    expect(signals).toEqual([
      [4242, 'SIGSTOP'],
      [4242, 'SIGCONT'],
    ]);

    send(2, wallClock() + HOLD_LEAD_MS + 40);
    await waitFor(() => signals.length === 3, 2000, 'the second hold');
    core.handle({ type: 'hold-still', pids: [5353] }); // the engraver was restarted meanwhile
    expect(signals.slice(3)).toEqual([[4242, 'SIGCONT']]);
    await sleep(80); // the send of job 2 releases nothing more: 5353 was never stopped
    expect(signals).toHaveLength(4);

    send(3, wallClock() + HOLD_LEAD_MS + 40);
    await waitFor(() => signals.length === 5, 2000, 'the third hold');
    send(4, wallClock() + 10_000); // its hold is not due yet: closing drops it
  } finally {
    core.handle({ type: 'close' });
  }
  expect(signals.slice(4)).toEqual([
    [5353, 'SIGSTOP'],
    [5353, 'SIGCONT'],
  ]);
  await sleep(50);
  expect(signals).toHaveLength(6);
});

test('nothing is held while no process is named, and the process running this test is never held', async () => {
  const { core, signals, send } = recordedCore();
  try {
    send(1, wallClock() + 20);
    core.handle({ type: 'hold-still', pids: [process.pid] });
    send(2, wallClock() + 20);
    await sleep(60);
    expect(signals).toEqual([]);
  } finally {
    core.handle({ type: 'close' });
  }
});
