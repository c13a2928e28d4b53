// The console's count-in: N clicks (one bar by default) to the console and, as timetagged OSC
// bundles, to the musicians, then play — timed so the first beat of the show lands one beat
// after the last click, on the same clock as the beats.

import dgram from 'node:dgram';
import { Bundle, encode } from 'node-osc';
import { DEFAULT_LOOKAHEAD_MS } from '#core/score/engine.js';

/**
 * @typedef {object} CountIn
 * @property {(beats: number) => void} start schedule `beats` clicks, then play
 * @property {(reason: string) => boolean} cancel stop a running count-in; false when none runs
 * @property {() => { beats: number, startsAt: number } | null} active the running count-in, if any
 * @property {(reason: string) => void} close cancel and release the OSC sockets
 */

/**
 * @param {object} options
 * @param {any} options.show the running show (engine.status(), engine.play())
 * @param {{ list: () => Array<{ host: string, port: number }> }} options.osc the musicians' targets
 * @param {import('../metrics.js').Metrics} options.metrics OSC send errors are counted
 * @param {() => number} options.serverNow the server clock (ms) beats are timed on
 * @param {(data: Record<string, unknown>) => void} options.tell a click, or the cancellation, for the consoles
 * @returns {CountIn}
 */
export function createCountIn({ show, osc, metrics, serverNow, tell }) {
  /** @type {{ beats: number, startsAt: number, timers: NodeJS.Timeout[] } | null} */
  let running = null;
  const socket4 = dgram.createSocket('udp4');
  const socket6 = dgram.createSocket('udp6');
  for (const s of [socket4, socket6]) s.on('error', () => metrics.oscErrors.inc());
  const sendOsc = (bytes) => {
    for (const t of osc.list()) (t.host.includes(':') ? socket6 : socket4).send(bytes, t.port, t.host, (err) => err && metrics.oscErrors.inc());
  };

  function cancel(reason) {
    if (!running) return false;
    for (const timer of running.timers) clearTimeout(timer);
    running = null;
    tell({ cancelled: true, reason });
    return true;
  }

  function start(beats) {
    const beatMs = 60000 / show.engine.status().tempo;
    const lead = DEFAULT_LOOKAHEAD_MS;
    const first = serverNow() + lead; // the first click sounds one lookahead from now, like a beat
    const startsAt = first + beats * beatMs;
    const timers = [];
    for (let k = 0; k < beats; k += 1) {
      const at = first + k * beatMs;
      timers.push(setTimeout(() => {
        sendOsc(encode(new Bundle(at / 1000, ['/tutti/countin', k + 1, beats])));
        tell({ n: k + 1, of: beats, at });
      }, Math.max(0, at - lead - serverNow())));
    }
    // engine.play() makes the next beat sound one lookahead after the call.
    timers.push(setTimeout(() => {
      running = null;
      show.engine.play();
    }, Math.max(0, startsAt - lead - serverNow())));
    running = { beats, startsAt, timers };
  }

  return {
    start,
    cancel,
    active: () => (running ? { beats: running.beats, startsAt: running.startsAt } : null),
    close(reason) {
      cancel(reason);
      socket4.close();
      socket6.close();
    },
  };
}
