// The sending half of the show's OSC sender (osc.js): the UDP sockets and the precise timer, fed
// with jobs ("send these packets now", "send them at this time", "cancel that"). It runs in a
// worker thread (osc-send-worker.js), so a main event loop busy fanning an update out to thousands
// of viewers cannot make a beat late; in the main thread only if no worker can start
// (osc-send-thread.js). It reports every send's outcome, socket errors and packets that arrive
// (the echo of a test ping) back to osc.js.

import dgram from 'node:dgram';
import { createPreciseTimer } from './precise-timer.js';
import { HOLD_AFTER_MS, HOLD_LEAD_MS, createHoldStill } from './hold-still.js';

/** Packets larger than this are reported without their bytes (an echoed ping is 24 bytes). */
export const MAX_ECHO_BYTES = 512;

/** The high-resolution wall clock jobs are timed on (the same in every thread of the process). */
export const wallClock = () => performance.timeOrigin + performance.now();

/**
 * @typedef {{ key: string, host: string, port: number, bytes: Uint8Array, ref?: number }} Packet
 * @typedef {{ type: 'send', id: number, at: number | null, packets: Packet[] } | { type: 'cancel', id: number }
 *   | { type: 'hold-still', pids: number[] } | { type: 'close' }} SendJob
 *   `at`: wall-clock ms to send at, null for now; `hold-still`: processes stopped around each timed
 *   send (hold-still.js), none by default
 * @typedef {{ type: 'result', key: string, ref?: number, error: string | null }
 *   | { type: 'socket-error', message: string }
 *   | { type: 'received', bytes: Uint8Array | null, at: number }} SendReport
 */

/**
 * @param {(report: SendReport) => void} report
 * @param {import('./hold-still.js').HoldStill} [still] the processes held still around timed sends
 * @returns {{ handle: (job: SendJob) => void }}
 */
export function createSendCore(report, still = createHoldStill()) {
  const socket4 = dgram.createSocket('udp4');
  const socket6 = dgram.createSocket('udp6');
  for (const s of [socket4, socket6]) {
    // Asynchronous ICMP errors surface here.
    s.on('error', (err) => report({ type: 'socket-error', message: err.message }));
    s.on('message', (bytes) => report({ type: 'received', bytes: bytes.length <= MAX_ECHO_BYTES ? bytes : null, at: wallClock() }));
  }
  const timer = createPreciseTimer(wallClock);
  /** @type {Map<number, () => void>} timed jobs not sent yet */
  const waiting = new Map();

  /** @param {Packet[]} packets */
  function sendAll(packets) {
    for (const p of packets) {
      (p.host.includes(':') ? socket6 : socket4).send(p.bytes, p.port, p.host, (err) =>
        report({ type: 'result', key: p.key, ref: p.ref, error: err ? err.message : null }),
      );
    }
  }

  /**
   * Stop the held-still processes HOLD_LEAD_MS before `at` (a plain timer: only the send needs
   * precision); `end` lets them go on, or drops the hold not started yet; `endSoon` lets them go
   * on HOLD_AFTER_MS after the send.
   */
  function holdBefore(/** @type {number} */ at) {
    if (!still.active()) return { end: () => {}, endSoon: () => {} };
    /** @type {(() => void) | null} */
    let release = null;
    const start = setTimeout(() => (release = still.hold()), Math.max(0, at - HOLD_LEAD_MS - wallClock()));
    return {
      end() {
        clearTimeout(start);
        release?.();
        release = null;
      },
      endSoon() {
        clearTimeout(start);
        const ending = release;
        release = null;
        if (ending) setTimeout(ending, HOLD_AFTER_MS); // closing releases everything sooner
      },
    };
  }

  return {
    handle(job) {
      if (job.type === 'send') {
        if (job.at === null) return sendAll(job.packets);
        let sent = false;
        const holding = holdBefore(job.at);
        const cancel = timer.at(job.at, () => {
          sent = true;
          waiting.delete(job.id);
          sendAll(job.packets);
          holding.endSoon();
        });
        if (!sent)
          waiting.set(job.id, () => {
            cancel();
            holding.end();
          });
      } else if (job.type === 'hold-still') {
        still.setPids(job.pids);
      } else if (job.type === 'cancel') {
        waiting.get(job.id)?.();
        waiting.delete(job.id);
      } else if (job.type === 'close') {
        for (const cancel of waiting.values()) cancel(); // their holds not started yet too
        waiting.clear();
        timer.clear();
        still.releaseAll();
        socket4.close();
        socket6.close();
      }
    },
  };
}
