// OSC to the musicians (README.md, "OSC address space"). Every beat and cue is encoded once
// (node-osc) as a bundle whose timetag is the time it sounds, and the same bytes go to every target
// from one UDP socket: a target that is down (ICMP unreachable) only produces a counted error,
// never blocks the others, and is reached again as soon as it is back — nobody re-registers it.
// With `plain` (--osc-plain), for receivers that do not read bundles, each beat and cue is a plain
// message sent at the moment it sounds instead (timed by the server, ±1–2 ms).

import dgram from 'node:dgram';
import { Bundle, Message, encode } from 'node-osc';

/**
 * Parse "host:port" (IPv6 as "[::1]:port").
 * @param {string} text
 * @returns {{ host: string, port: number } | null}
 */
export function parseOscTarget(text) {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s/]+)):(\d{1,5})$/.exec(String(text).trim());
  if (!match) return null;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return null;
  return { host: match[1] ?? match[2], port };
}

const float = (value) => ({ type: 'f', value });

/**
 * @param {object} options
 * @param {Array<{ host: string, port: number }>} options.targets
 * @param {any} options.show
 * @param {import('./metrics.js').Metrics} options.metrics
 * @param {{ warn: (msg: string) => void, info: (msg: string) => void }} options.log
 * @param {boolean} [options.plain] plain messages at the beat's time instead of timetagged bundles ahead of it
 * @param {() => number} [options.now] the server clock beats are timed on (ms; needed with `plain`)
 */
export function createOscOut({ targets, show, metrics, log, plain = false, now = () => Date.now() }) {
  const socket4 = dgram.createSocket('udp4');
  const socket6 = dgram.createSocket('udp6');
  // Asynchronous ICMP errors surface here; count them and carry on.
  for (const s of [socket4, socket6]) s.on('error', (err) => { metrics.oscErrors.inc(); log.warn(`OSC socket: ${err.message}`); });
  /** @type {Map<string, { host: string, port: number, sent: number, errors: number, lastError: string | null }>} */
  const list = new Map();
  const key = (t) => `${t.host}:${t.port}`;

  function sendBytes(bytes, kind) {
    for (const target of list.values()) {
      const sock = target.host.includes(':') ? socket6 : socket4;
      sock.send(bytes, target.port, target.host, (err) => {
        if (err) {
          target.errors += 1;
          target.lastError = err.message;
          metrics.oscErrors.inc();
        } else target.sent += 1;
      });
    }
    metrics.oscSent.inc({ kind }, list.size);
  }

  /** @type {Set<NodeJS.Timeout>} */
  const timers = new Set();
  /**
   * Send `[address, ...args]` that sounds at `at`: a timetagged bundle now, or a plain message then.
   * @param {number} at
   * @param {[string, ...any[]]} element
   * @param {string} kind
   */
  function sendTimed(at, element, kind) {
    if (!plain) return sendBytes(encode(new Bundle(at / 1000, element)), kind);
    const [address, ...args] = element;
    const bytes = encode(new Message(address, ...args));
    const timer = setTimeout(() => {
      timers.delete(timer);
      sendBytes(bytes, kind);
    }, Math.max(0, at - now()));
    timers.add(timer);
  }
  const onBeat = (beat) => sendTimed(beat.at, ['/tutti/beat', beat.bar, beat.beat, float(beat.bpm)], 'beat');
  const onCue = (cue) => sendTimed(cue.at, [cue.address, ...cue.args], 'cue');
  const onTransport = (state) => sendBytes(encode(new Message('/tutti/transport', state)), 'transport');
  show.events.on('beat', onBeat);
  show.events.on('osc-cue', onCue);
  show.events.on('transport', onTransport);

  const api = {
    /** @param {{ host: string, port: number }} target */
    add(target) {
      if (!list.has(key(target))) list.set(key(target), { ...target, sent: 0, errors: 0, lastError: null });
    },
    /** @param {{ host: string, port: number }} target */
    remove: (target) => list.delete(key(target)),
    /** Send `/tutti/ping` to one target (the console's "test" button). */
    ping(target) {
      const bytes = encode(new Message('/tutti/ping', Date.now() % 2147483647));
      const sock = target.host.includes(':') ? socket6 : socket4;
      return new Promise((resolve) => sock.send(bytes, target.port, target.host, (err) => resolve(!err)));
    },
    /**
     * Send one plain message to every target now (vote results, reaction level: README.md, "OSC address space").
     * @param {string} address
     * @param {Array<string | number | { type: string, value: number }>} args
     * @param {string} kind the tutti_osc_sent_total label
     */
    message(address, args, kind) {
      sendBytes(encode(new Message(address, ...args)), kind);
    },
    list: () => [...list.values()].map((t) => ({ ...t })),
    close() {
      show.events.off('beat', onBeat);
      show.events.off('osc-cue', onCue);
      show.events.off('transport', onTransport);
      for (const timer of timers) clearTimeout(timer);
      socket4.close();
      socket6.close();
    },
  };
  for (const target of targets) api.add(target);
  return api;
}
