// OSC to the musicians (README.md, "OSC address space" and "OSC out: on time in every receiver").
// The one sender of everything the musicians get — beats, score cues, transport, count-in clicks,
// votes, reactions, the console's test ping — from one UDP socket per address family: a target
// that is down (ICMP unreachable) only produces a counted error, never blocks the others, and is
// reached again as soon as it is back.
//
// Each target has a mode (osc-target.js). `plain`, the default, sends a beat or cue as a plain
// message at the moment it sounds (+ the target's offset), timed by a precise timer, so every
// receiver is on time whatever it does with bundles (Pd's oscparse and Max's udpreceive act on a
// bundle when it arrives). `ahead` sends a bundle timetagged with that moment as soon as the beat
// is known (one lookahead, 300 ms, early), for receivers that schedule by timetag (liblo,
// SuperCollider); it rides out network jitter but fires early in a receiver that ignores timetags.
// A target that echoes `/tutti/ping n` back to the sending port shows its round trip.

import dgram from 'node:dgram';
import { Bundle, Message, encode, decode } from 'node-osc';
import { checkTargetOptions, formatTarget } from './osc-target.js';
import { createPreciseTimer } from './precise-timer.js';
import { BadInput } from './metrics.js';

export { parseOscTarget } from './osc-target.js';

/** An echoed ping later than this is not matched any more (ms). */
const PING_WINDOW_MS = 5000;
/** How long the test button waits for an echo before answering without a round trip (ms). */
const ECHO_WAIT_MS = 500;
/** Echo packets larger than this are not read (a ping is 24 bytes). */
const MAX_ECHO_BYTES = 512;

const float = (value) => ({ type: 'f', value });
const key = (t) => `${t.host}:${t.port}`;

/**
 * @typedef {object} TargetState
 * @property {string} host
 * @property {number} port
 * @property {'plain' | 'ahead'} mode
 * @property {number} offsetMs
 * @property {number} sent packets handed to the network
 * @property {number} errors send failures (unreachable, no route, name lookup)
 * @property {string | null} lastError
 * @property {{ ms: number, at: number } | null} rtt the last echoed ping's round trip
 */

/**
 * @param {object} options
 * @param {Array<{ host: string, port: number, mode?: 'plain' | 'ahead', offsetMs?: number }>} options.targets
 * @param {any} options.show
 * @param {import('./metrics.js').Metrics} options.metrics
 * @param {{ warn: (msg: string) => void, info: (msg: string) => void }} options.log
 * @param {() => number} [options.now] the server clock beats are timed on (ms)
 * @param {boolean} [options.allPlain] every target plain whatever it asks (--osc-plain, kept for old command lines)
 */
export function createOscOut({ targets, show, metrics, log, now = () => Date.now(), allPlain = false }) {
  const socket4 = dgram.createSocket('udp4');
  const socket6 = dgram.createSocket('udp6');
  /** @type {Map<string, TargetState>} */
  const list = new Map();
  /** @type {Map<number, { key: string, sentAt: number, echoed: (ms: number | null) => void }>} pings waiting for an echo, by id */
  const pings = new Map();
  const timer = createPreciseTimer(now);
  /** @type {Set<() => void>} beats and cues waiting for their moment (dropped on pause/stop) */
  const waitingShow = new Set();

  for (const s of [socket4, socket6]) {
    // Asynchronous ICMP errors surface here; count them and carry on.
    s.on('error', (err) => { metrics.oscErrors.inc(); log.warn(`OSC socket: ${err.message}`); });
    s.on('message', onEcho);
  }

  /**
   * A receiver set up to answer `/tutti/ping n` with the same message shows its round trip. Only
   * such echoes are read (≤ 512 bytes, while a ping waits); anything else is counted and dropped.
   */
  function onEcho(/** @type {Buffer} */ bytes) {
    const stray = () => metrics.badInput.inc({ source: BadInput.OSC_REPLY });
    if (bytes.length > MAX_ECHO_BYTES || pings.size === 0) return stray();
    let packet;
    try {
      packet = decode(bytes);
    } catch {
      return stray();
    }
    const message = packet?.oscType === 'bundle' ? packet.elements?.[0] : packet;
    const waiting = ['/tutti/ping', '/tutti/pong'].includes(message?.address) ? pings.get(message.args?.[0]?.value) : undefined;
    if (!waiting) return stray();
    const id = message.args[0].value;
    pings.delete(id);
    const ms = Math.round((performance.now() - waiting.sentAt) * 100) / 100;
    const target = list.get(waiting.key);
    if (target) target.rtt = { ms, at: Date.now() };
    waiting.echoed(ms);
  }

  /** @param {TargetState} target @param {Buffer} bytes */
  function sendTo(target, bytes) {
    const sock = target.host.includes(':') ? socket6 : socket4;
    sock.send(bytes, target.port, target.host, (err) => {
      if (err) {
        target.errors += 1;
        target.lastError = err.message;
        metrics.oscErrors.inc();
      } else target.sent += 1;
    });
  }

  /** Plain message to every target now. */
  function sendNow(bytes, kind) {
    for (const target of list.values()) sendTo(target, bytes);
    metrics.oscSent.inc({ kind }, list.size);
  }

  const modeOf = (target) => (allPlain ? 'plain' : target.mode);

  /**
   * `[address, ...args]` that sounds at `at` (server clock): to each target by its mode and offset.
   * @returns {() => void} cancels whatever has not been sent yet
   */
  function timed(at, element, kind) {
    const [address, ...args] = element;
    const plainBytes = encode(new Message(address, ...args));
    /** @type {Map<number, TargetState[]>} plain targets by offset: one timer per distinct moment */
    const plainByOffset = new Map();
    /** @type {Map<number, Buffer>} bundles by offset: encoded once */
    const bundles = new Map();
    for (const target of list.values()) {
      if (modeOf(target) === 'plain') {
        const group = plainByOffset.get(target.offsetMs) ?? [];
        group.push(target);
        plainByOffset.set(target.offsetMs, group);
      } else {
        if (!bundles.has(target.offsetMs)) bundles.set(target.offsetMs, encode(new Bundle((at + target.offsetMs) / 1000, element)));
        sendTo(target, /** @type {Buffer} */ (bundles.get(target.offsetMs)));
        metrics.oscSent.inc({ kind });
      }
    }
    const cancels = [...plainByOffset].map(([offset, group]) => timer.at(at + offset, () => {
      for (const target of group) if (list.get(key(target)) === target) sendTo(target, plainBytes);
      metrics.oscSent.inc({ kind }, group.length);
    }));
    return () => cancels.forEach((cancel) => cancel());
  }

  /** Beats and cues: remembered until sent, so a pause or stop drops the ones not yet due. */
  function timedShow(at, element, kind) {
    const cancel = timed(at, element, kind);
    waitingShow.add(cancel);
    // After the latest offset has passed, forget it.
    setTimeout(() => waitingShow.delete(cancel), Math.max(0, at - now()) + 1000).unref();
  }
  const onBeat = (beat) => timedShow(beat.at, ['/tutti/beat', beat.bar, beat.beat, float(beat.bpm)], 'beat');
  const onCue = (cue) => timedShow(cue.at, [cue.address, ...cue.args], 'cue');
  const onTransport = (state) => {
    if (state !== 'playing') {
      for (const cancel of waitingShow) cancel();
      waitingShow.clear();
    }
    sendNow(encode(new Message('/tutti/transport', state)), 'transport');
  };
  show.events.on('beat', onBeat);
  show.events.on('osc-cue', onCue);
  show.events.on('transport', onTransport);

  const api = {
    /**
     * Add a target (or change the mode/offset of one already there).
     * @param {{ host: string, port: number, mode?: 'plain' | 'ahead', offsetMs?: number }} target
     */
    add(target) {
      const checked = checkTargetOptions(target);
      if ('error' in checked) throw new Error(`${formatTarget(target)}: ${checked.error}`);
      const existing = list.get(key(target));
      if (existing) Object.assign(existing, checked);
      else list.set(key(target), { host: target.host, port: target.port, ...checked, sent: 0, errors: 0, lastError: null, rtt: null });
    },
    /**
     * Change a target's mode and/or offset; null when there is no such target.
     * @param {{ host: string, port: number }} target
     * @param {{ mode?: 'plain' | 'ahead', offsetMs?: number }} change
     */
    update(target, change) {
      const existing = list.get(key(target));
      if (!existing) return null;
      const checked = checkTargetOptions({ mode: change.mode ?? existing.mode, offsetMs: change.offsetMs ?? existing.offsetMs });
      if ('error' in checked) throw new Error(`${formatTarget(target)}: ${checked.error}`);
      Object.assign(existing, checked);
      return { ...existing };
    },
    /** @param {{ host: string, port: number }} target */
    remove: (target) => list.delete(key(target)),
    /**
     * Send `/tutti/ping n` to one target (the console's "test" button). Resolves with whether the
     * network took it and, when the target echoes it within `echoWaitMs`, the round trip (ms).
     * @param {{ host: string, port: number }} target
     * @param {number} [echoWaitMs]
     * @returns {Promise<{ sent: boolean, rttMs: number | null }>}
     */
    ping(target, echoWaitMs = ECHO_WAIT_MS) {
      const id = 1 + Math.floor(Math.random() * 2147483646);
      const bytes = encode(new Message('/tutti/ping', id));
      const sock = target.host.includes(':') ? socket6 : socket4;
      return new Promise((resolve) => {
        const entry = { key: key(target), sentAt: performance.now(), echoed: (/** @type {number | null} */ ms) => resolve({ sent: true, rttMs: ms }) };
        pings.set(id, entry);
        const forget = setTimeout(() => pings.delete(id), PING_WINDOW_MS);
        forget.unref();
        sock.send(bytes, target.port, target.host, (err) => {
          if (err) {
            pings.delete(id);
            clearTimeout(forget);
            resolve({ sent: false, rttMs: null });
            return;
          }
          setTimeout(() => entry.echoed(null), echoWaitMs).unref();
        });
      });
    },
    /**
     * Send one plain message to every target now (vote results, reaction level: README.md, "OSC address space").
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
    /** @returns {TargetState[]} */
    list: () => [...list.values()].map((t) => ({ ...t, mode: modeOf(t) })),
    close() {
      show.events.off('beat', onBeat);
      show.events.off('osc-cue', onCue);
      show.events.off('transport', onTransport);
      timer.clear();
      socket4.close();
      socket6.close();
    },
  };
  for (const target of targets) api.add(target);
  return api;
}
