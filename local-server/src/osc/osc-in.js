// OSC remote control on a UDP port (--osc-in): /tutti/play, /pause, /stop, /seek bar [beat],
// /tempo bpm, /rehearsal 0|1 (docs/how-to/rehearse.md#rehearsal-mode), and rehearsal (docs/how-to/rehearse.md#rehearsing):
// /start, /loop (from a section, a printed bar "p17" or a bar), /loop/release, /tempo/percent.
// OSC has no authentication, so the listener defends by where it listens and who it hears
// (docs/reference/test-suites.md#interop-suite): it binds 127.0.0.1 unless given a host, only senders inside
// --osc-allow are heard, and a packet may carry at most a few commands, the listener at most a few
// dozen a second — one 56 KB bundle of 2,000 seeks used to become 2,000 deltas pushed to every
// phone. Anything dropped is counted in tutti_bad_input_total{source}.

import dgram from 'node:dgram';
import { decodeOsc } from './osc-decode.js';
import { createTokenBucket } from '#core/util/token-bucket.js';
import { BadInput } from '../logs/metrics.js';
import { createTransportLog } from '../logs/transport-log.js';
import { createRehearsal } from '../show/rehearsal.js';

/** A show needs one command at a time; a controller may group a seek and a play. */
export const MAX_COMMANDS_PER_PACKET = 8;
/** Sustained commands per second (and burst): far above a human or a sequencer's cue list. */
export const COMMANDS_PER_SECOND = 20;
const WARN_EVERY_MS = 60_000;

/**
 * Parse `--osc-in [HOST:]PORT`; a bare port means 127.0.0.1:PORT (IPv6 as "[::1]:PORT").
 * @param {string} text
 * @returns {{ host: string, port: number } | null}
 */
export function parseOscListen(text) {
  const match = /^(?:(?:\[([0-9a-fA-F:.]+)\]|([^:\s/[\]]+)):)?(\d{1,5})$/.exec(String(text).trim());
  if (!match || Number(match[3]) > 65535) return null;
  return { host: match[1] ?? match[2] ?? '127.0.0.1', port: Number(match[3]) };
}

/**
 * @param {object} options
 * @param {number} options.port
 * @param {string} [options.host] default 127.0.0.1 (this machine only)
 * @param {((address: string) => boolean) | null} [options.allow] senders heard (null: everyone who can reach `host`)
 * @param {any} options.show
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {{ warn: (msg: string) => void, info: (msg: string) => void }} options.log
 * @param {() => number} [options.wallClock] ms, for the once-a-minute warnings (tests move it)
 * @returns {Promise<{ port: number, host: string, close: () => Promise<void> }>}
 */
export function startOscIn({ port, host = '127.0.0.1', allow = null, show, metrics, log, wallClock = Date.now }) {
  const bad = () => metrics.badInput.inc({ source: BadInput.OSC });
  const budget = createTokenBucket({ ratePerSecond: COMMANDS_PER_SECOND, burst: COMMANDS_PER_SECOND, now: performance.now() });
  /** @type {Record<string, { at: number, quiet: number }>} when each kind was last printed, and how many since were not */
  const warned = {};
  /**
   * One console line a minute per kind of drop, not one per packet, saying how many were not
   * printed since the last: a sender repeating a mistake 20 times a second would flush the
   * console's log view (issue 40 item 15).
   */
  const warnOnce = (kind, message) => {
    const t = wallClock();
    const last = (warned[kind] ??= { at: -Infinity, quiet: 0 });
    if (t - last.at < WARN_EVERY_MS) {
      last.quiet += 1;
      return;
    }
    const more = last.quiet ? ` (and ${last.quiet} more like it since the last such line)` : '';
    warned[kind] = { at: t, quiet: 0 };
    log.warn(`${message}${more}`);
  };
  const drop = (source, count = 1) => metrics.badInput.inc({ source }, count);

  const said = createTransportLog(log, show.engine, 'OSC-in');
  const rehearsal = createRehearsal(show);
  /** A section's mark wins over a printed bar written the same way ("p17"). */
  const isMark = (/** @type {string} */ mark) => (show.engine.score().sections ?? []).some((s) => s.mark === mark);
  /** @type {Record<string, (...args: any[]) => string | boolean | void>} each returns what it did, for the log (tempo is logged as tempo; /rehearsal whether it changed) */
  const commands = {
    '/tutti/play': () => show.engine.play(),
    '/tutti/pause': () => show.engine.pause(),
    '/tutti/stop': () => show.engine.stop(),
    '/tutti/seek': (bar, beat = 1) => show.engine.seek(bar, beat),
    '/tutti/tempo': (bpm) => show.engine.setTempo(bpm),
    '/tutti/tempo/percent': (percent) => rehearsal.tempoPercent(percent),
    '/tutti/start': (...args) => rehearsal.start(startArgs(args, isMark)),
    '/tutti/loop': (...args) => rehearsal.loop(loopArgs(args, isMark)),
    '/tutti/loop/release': () => {
      if (!rehearsal.release()) throw new Error('no loop is set');
      return 'loop released: leaving at the end of this pass';
    },
    // docs/how-to/rehearse.md#rehearsal-mode: i:1 on, i:0 off (OSC true/false too); anything else is bad input.
    '/tutti/rehearsal': (on) => {
      if (on !== 0 && on !== 1 && typeof on !== 'boolean') throw new Error('needs i:1 (on) or i:0 (off)');
      return show.setRehearsal(on === 1 || on === true);
    },
  };
  /** Carry out one message; false when it was a command the rate budget had no room for. */
  const run = (/** @type {[string, ...unknown[]]} */ message, /** @type {number} */ t) => {
    const [address, ...args] = message;
    const command = commands[address];
    if (!command) {
      warnOnce(
        'unknown',
        `OSC-in: ${address} is not a Tutti command (docs/reference/osc.md#address-space); counted in tutti_bad_input_total{source="osc"}`,
      );
      return bad();
    }
    // Only real commands spend the budget: junk costs no state change, so it cannot crowd out a cue.
    if (!budget.take(t)) return false;
    try {
      const what = command(...args);
      metrics.oscIn.inc({ address });
      if (address === '/tutti/tempo') said.tempo(/** @type {number} */ (args[0]));
      else if (address === '/tutti/tempo/percent') said.tempo(null, undefined, `${args[0]} % of the written tempo`);
      else if (address === '/tutti/rehearsal') {
        if (what) said.rehearsal(show.rehearsal());
      } else if (typeof what === 'string') said.transport(what);
      else said.transport(address === '/tutti/seek' ? `seek to bar ${args[0]} beat ${args[1] ?? 1}` : address.slice('/tutti/'.length));
    } catch (err) {
      bad();
      warnOnce('arguments', `OSC-in ${address}: ${err.message}; counted in tutti_bad_input_total{source="osc"}`);
    }
  };

  /** Flatten a decoded packet (message or nested bundles: osc-decode.js allows 8 deep) into `[address, ...args]` lists. */
  const messagesOf = (/** @type {import('./osc-decode.js').OscPacket} */ packet, /** @type {Array<[string, ...unknown[]]>} */ out = []) => {
    if (packet.oscType === 'bundle') for (const element of packet.elements) messagesOf(element, out);
    else out.push([packet.address, ...packet.args.map((a) => a.value)]);
    return out;
  };

  const receive = (/** @type {Buffer} */ bytes, /** @type {dgram.RemoteInfo} */ rinfo) => {
    // Who sent it is checked before a byte is decoded.
    if (allow && !allow(rinfo.address)) {
      drop(BadInput.OSC_DENIED);
      warnOnce('denied', `OSC-in: ignoring ${rinfo.address} (not in --osc-allow); counted in tutti_bad_input_total{source="osc_denied"}`);
      return;
    }
    let messages;
    try {
      messages = messagesOf(decodeOsc(bytes));
    } catch (err) {
      warnOnce(
        'malformed',
        `OSC-in: ignoring a malformed packet from ${rinfo.address}: ${err.message}; counted in tutti_bad_input_total{source="osc"}`,
      );
      return bad();
    }
    let flooded = Math.max(0, messages.length - MAX_COMMANDS_PER_PACKET);
    const t = performance.now();
    for (const message of messages.slice(0, MAX_COMMANDS_PER_PACKET)) {
      if (run(message, t) === false) flooded += 1;
    }
    if (flooded > 0) {
      drop(BadInput.OSC_FLOOD, flooded);
      warnOnce(
        'flood',
        `OSC-in: dropped commands from ${rinfo.address} (over ${MAX_COMMANDS_PER_PACKET} per packet or ${COMMANDS_PER_SECOND}/s); counted in tutti_bad_input_total{source="osc_flood"}`,
      );
    }
  };

  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
    socket.once('listening', () => {
      socket.removeListener('error', reject);
      socket.on('error', (err) => log.warn(`OSC-in socket: ${err.message}`));
      const bound = socket.address();
      if (!allow && !['127.0.0.1', '::1'].includes(bound.address)) {
        log.warn(
          `OSC-in listens on ${host}:${bound.port} and accepts commands from anyone who can reach it; add --osc-allow with your musicians' addresses`,
        );
      }
      resolve({ port: bound.port, host: bound.address, close: () => new Promise((done) => socket.close(() => done())) });
    });
    socket.once('error', reject);
    socket.on('message', receive);
    socket.bind(port, host);
  });
}

/** A printed bar as OSC-in writes it: "p17" (printed bar 17), "p17.2" (its 2nd time through). */
const PRINTED_BAR = /^p([1-9]\d{0,5})(?:\.([1-9]\d{0,1}))?$/i;

/**
 * A place from OSC arguments: a string is a section's mark, or — when no section has that mark —
 * a printed bar ("p17", "p17.2": docs/reference/osc.md#address-space); an integer a running bar. A bar
 * (running or printed) is followed by its beat when `withBeat`. Returns the place and the
 * arguments after it.
 * @param {unknown[]} args
 * @param {boolean} withBeat whether a bar is followed by its beat
 * @param {(mark: string) => boolean} isMark whether the score has a section with this mark
 * @returns {[import('#core/engine/start-point.js').PlaceSpec, unknown[]]}
 */
function placeArg(args, withBeat, isMark) {
  const [first, ...rest] = args;
  /** @type {{ printedBar: number, pass?: number } | { bar: number }} */
  let bar;
  if (typeof first === 'string') {
    const printed = PRINTED_BAR.exec(first);
    if (isMark(first) || !printed) return [{ section: first }, rest];
    bar = { printedBar: Number(printed[1]), ...(printed[2] ? { pass: Number(printed[2]) } : {}) };
  } else if (Number.isInteger(first)) bar = { bar: /** @type {number} */ (first) };
  else throw new Error('expected a section mark or a printed bar ("p17", "p17.2") as a string, or a bar (integer)');
  if (!withBeat) return [bar, rest];
  const [beat = 1, ...after] = rest;
  return [{ ...bar, beat: /** @type {number} */ (beat) }, after];
}

const optionalInt = (/** @type {unknown} */ v, /** @type {string} */ name) => {
  if (v === undefined) return undefined;
  if (!Number.isInteger(v)) throw new Error(`${name} must be an integer`);
  return /** @type {number} */ (v);
};

/** Every mark is unknown: for callers without a score at hand. */
const noMarks = () => false;

/**
 * `/tutti/start s:mark [i:countInBars]`, `/tutti/start i:bar [i:beat] [i:countInBars]` or
 * `/tutti/start s:"p17[.pass]" [i:beat] [i:countInBars]` (a printed bar).
 * @param {unknown[]} args
 * @param {(mark: string) => boolean} [isMark] whether the score has a section with this mark (it wins over a printed bar)
 */
export function startArgs(args, isMark = noMarks) {
  const [from, rest] = placeArg(args, true, isMark);
  if (rest.length > 1) throw new Error('too many arguments');
  return { from, countInBars: optionalInt(rest[0], 'countInBars') };
}

/**
 * `/tutti/loop from to [i:passes] [i:countInBars]`: `from` and `to` each a section's mark, a
 * printed bar ("p17", "p17.2") or a bar; passes 0 (or none) = until released. The show starts
 * from the loop's start.
 * @param {unknown[]} args
 * @param {(mark: string) => boolean} [isMark] whether the score has a section with this mark (it wins over a printed bar)
 */
export function loopArgs(args, isMark = noMarks) {
  const [from, rest] = placeArg(args, false, isMark);
  const [to, after] = rest.length ? placeArg(rest, false, isMark) : [undefined, []];
  if (after.length > 2) throw new Error('too many arguments');
  const passes = optionalInt(after[0], 'passes');
  return { from, to, passes: passes === undefined || passes === 0 ? null : passes, countInBars: optionalInt(after[1], 'countInBars') };
}
