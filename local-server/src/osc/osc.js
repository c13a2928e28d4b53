// OSC to the musicians (docs/reference/osc.md#address-space and "OSC out: on time in every receiver").
// The one sender of everything the musicians get — beats, score cues, transport, count-in clicks,
// votes, reactions, the console's test ping. Messages are encoded here, once for all targets; the
// packets leave from one UDP socket per address family in the OSC send thread (osc-send-core.js),
// which times them on its own event loop, so the main loop's fan-out to thousands of viewers
// cannot make a beat late. A target that is down (ICMP unreachable) only produces a counted
// error, never blocks the others, and is reached again as soon as it is back.
//
// Each target has a mode (osc-target.js). `plain`, the default, sends a beat or cue as a plain
// message at the moment it sounds (+ the target's offset), timed by a precise timer, so every
// receiver is on time whatever it does with bundles (Pd's oscparse and Max's udpreceive act on a
// bundle when it arrives). `ahead` sends a bundle timetagged with that moment as soon as the beat
// is known (one lookahead, 300 ms, early), for receivers that schedule by timetag (liblo,
// scsynth, ChucK, Csound, Pd's [unpackOSC] → [pipelist]); it rides out network jitter but fires early in a receiver that ignores timetags.
// A target that echoes `/tutti/ping n` back to the sending port shows its round trip.

import { Bundle, Message, encode } from 'node-osc';
import { startSendThread } from './osc-send-thread.js';
import { wallClock } from './osc-send-core.js';
import { createOscTargetList, targetKey } from './osc-target-list.js';
import { createOscPings } from './osc-pings.js';
import { createPendingSends } from './osc-pending.js';
import { formatTarget } from './osc-target.js';

export { parseOscTarget } from './osc-target.js';

const float = (value) => ({ type: 'f', value });
/**
 * A score's cue arguments as they go out: true/false as the integers 1/0. OSC 1.0 lists `T` and
 * `F` among its nonstandard tags, and Pd vanilla's [oscparse] drops them with an error, so
 * `/cue A true 3` reached a patch as `cue A 3`, every later argument one place off
 * (docs/reference/osc.md#address-space). Every receiver reads `i`.
 * @param {Array<number | string | boolean>} args
 */
const cueArgs = (args) => args.map((arg) => (typeof arg === 'boolean' ? { type: 'i', value: arg ? 1 : 0 } : arg));

/** @typedef {import('./osc-target-list.js').TargetState} TargetState */

/**
 * @param {object} options
 * @param {Array<{ host: string, port: number, mode?: 'plain' | 'ahead', offsetMs?: number }>} options.targets
 * @param {import('../show/show.js').Show} options.show
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {{ warn: (msg: string) => void, info: (msg: string) => void }} options.log
 * @param {() => number} [options.now] the server clock beats are timed on (ms)
 * @param {boolean} [options.allPlain] every target plain whatever it asks (--osc-plain, kept for old command lines)
 */
export function createOscOut({ targets, show, metrics, log, now = () => Date.now(), allPlain = false }) {
  const list = createOscTargetList(allPlain);
  /** Beats and cues waiting for their moment (dropped on pause/stop). */
  const waitingShow = createPendingSends(now);
  let nextJob = 1;
  /** @type {ReturnType<typeof startSendThread> | null} started with the first packet */
  let thread = null;
  const onReport = (report) => takeSendReport(report, { list, pings, metrics, log });
  const post = (job) => (thread ??= startSendThread(onReport, log)).post(job);
  const pings = createOscPings({
    targets: list,
    metrics,
    sendNow: (packet) => post({ type: 'send', id: nextJob++, at: null, packets: [packet] }),
  });

  /** @param {TargetState[]} group @param {Uint8Array} bytes */
  const packetsFor = (group, bytes) => group.map((t) => ({ key: targetKey(t), host: t.host, port: t.port, bytes }));

  /** Plain message to every target now. */
  function sendNow(bytes, kind) {
    if (list.size() === 0) return;
    post({ type: 'send', id: nextJob++, at: null, packets: packetsFor(list.all(), bytes) });
    metrics.oscSent.inc({ kind }, list.size());
  }

  /**
   * `[address, ...args]` that sounds at `at` (server clock): to each target by its mode and offset.
   * @returns {() => void} cancels whatever has not been sent yet
   */
  function timed(at, element, kind) {
    const [address, ...args] = element;
    const plainBytes = encode(new Message(address, ...args));
    const groups = list.byModeAndOffset();
    for (const [offset, group] of groups.ahead) {
      post({ type: 'send', id: nextJob++, at: null, packets: packetsFor(group, encode(new Bundle((at + offset) / 1000, element))) });
      metrics.oscSent.inc({ kind }, group.length);
    }
    // The send thread times on the wall clock: where the server clock's `at` falls on it now.
    const wallAt = at - (now() - wallClock());
    const ids = [...groups.plain].map(([offset, group]) => {
      const id = nextJob++;
      post({ type: 'send', id, at: wallAt + offset, packets: packetsFor(group, plainBytes) });
      metrics.oscSent.inc({ kind }, group.length);
      return id;
    });
    return () => ids.forEach((id) => post({ type: 'cancel', id }));
  }
  /** Beats and cues: remembered until sent, so a pause or stop drops the ones not yet due. */
  const timedShow = (at, element, kind) => waitingShow.hold(at, timed(at, element, kind));
  const onBeat = (beat) => timedShow(beat.at, ['/tutti/beat', beat.bar, beat.beat, float(beat.bpm)], 'beat');
  const onCue = (cue) => timedShow(cue.at, [cue.address, ...cueArgs(cue.args)], 'cue');
  /** Count-in clicks not yet sent (dropped when the count-in is cancelled). */
  const waitingCountIn = createPendingSends(now);
  // A count-in (docs/how-to/rehearse.md#rehearsing): `/tutti/countin n of`, timed like a beat.
  const onCountIn = (click) => {
    if ('cancelled' in click) waitingCountIn.cancelAll();
    else waitingCountIn.hold(click.at, timed(click.at, ['/tutti/countin', click.n, click.of], 'countin'));
  };
  const onTransport = (state) => {
    if (state !== 'playing') waitingShow.cancelAll();
    sendNow(encode(new Message('/tutti/transport', state)), 'transport');
  };
  const stopListening = show.listen({ beat: onBeat, 'osc-cue': onCue, transport: onTransport, countin: onCountIn });

  /** Say in the log, once per change, a target setting that goes wrong in a receiver we know (osc-target.js targetWarning). */
  const warnAbout = (/** @type {{ host: string, port: number }} */ target) => {
    const warning = list.warning(target);
    if (warning) log.warn(`OSC target ${formatTarget(target)}: ${warning} (docs/how-to/connect-osc-tools.md#on-time-in-every-receiver)`);
  };

  const api = {
    /**
     * Add a target (or change the mode/offset of one already there).
     * @param {{ host: string, port: number, mode?: 'plain' | 'ahead', offsetMs?: number }} target
     */
    add(target) {
      list.add(target);
      warnAbout(target);
    },
    /**
     * Change a target's mode and/or offset; null when there is no such target.
     * @param {{ host: string, port: number }} target
     * @param {{ mode?: 'plain' | 'ahead', offsetMs?: number }} change
     */
    update(target, change) {
      const updated = list.update(target, change);
      if (updated) warnAbout(target);
      return updated;
    },
    remove: list.remove,
    /** Send `/tutti/ping n` to one target (the console's "test" button): osc-pings.js. */
    ping: pings.ping,
    /**
     * Send one plain message to every target now (vote results, reaction level: docs/reference/osc.md#address-space).
     * @param {string} address
     * @param {Array<string | number | { type: string, value: number }>} args
     * @param {string} kind the tutti_osc_sent_total label
     */
    message(address, args, kind) {
      sendNow(encode(new Message(address, ...args)), kind);
    },
    /**
     * Send `[address, ...args]` so that it arrives when it sounds at `at` (server clock), by each
     * target's mode and offset (the count-in's clicks). Call it at least one lookahead early for
     * `ahead` targets to get it in time.
     * @param {number} at
     * @param {[string, ...any[]]} element
     * @param {string} kind the tutti_osc_sent_total label
     * @returns {() => void} cancel what is not sent yet
     */
    timed,
    /**
     * Processes to stop for the few ms before each timed send and let go on right after it: the
     * engraving process (docs/reference/osc.md#beats-while-the-score-engraves). [] for none.
     * @param {number[]} pids
     */
    holdStillAroundSends(pids) {
      if (thread || pids.length > 0) post({ type: 'hold-still', pids });
    },
    /** @returns {TargetState[]} */
    list: list.list,
    close() {
      stopListening();
      waitingShow.cancelAll();
      waitingCountIn.cancelAll();
      thread?.close();
    },
  };
  for (const target of targets) api.add(target);
  return api;
}

/**
 * What the send thread says: each packet's outcome (counted on its target, or a ping's), socket
 * errors, packets that arrived (a ping's echo or a stray).
 * @param {import('./osc-send-core.js').SendReport} report
 * @param {{ list: import('./osc-target-list.js').OscTargetList, pings: ReturnType<typeof createOscPings>, metrics: import('../logs/metrics.js').Metrics, log: { warn: (msg: string) => void } }} parts
 */
function takeSendReport(report, { list, pings, metrics, log }) {
  if (report.type === 'result') {
    if (report.ref !== undefined) return pings.sent(report.ref, report.error === null);
    const target = list.get(report.key);
    if (report.error) {
      metrics.oscErrors.inc();
      if (target) {
        target.errors += 1;
        target.lastError = report.error;
      }
    } else if (target) target.sent += 1;
  } else if (report.type === 'socket-error') {
    metrics.oscErrors.inc();
    log.warn(`OSC socket: ${report.message}`);
  } else pings.echo(report.bytes, report.at);
}
