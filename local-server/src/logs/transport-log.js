// One log line per transport or tempo action, whoever made it (the console, the control API,
// OSC-in), so the console's Log panel and the log file tell what happened during a show. The
// same actions, with who made them, go to whoever listens with onAction (the performance
// record, docs/how-to/record-and-replay.md#the-performance-record).

import { standingWords } from '#core/engine/count-in.js';

/** @typedef {{ by: string, kind: 'transport' | 'tempo' | 'rehearsal', what: string, bpm?: number | null, after: { transport: string, bar: number, beat: number, tempo: number, countIn?: number } }} Action */

/** @type {WeakMap<object, Set<(action: Action) => void>>} listeners per engine */
const listeners = new WeakMap();

/**
 * Hear every action logged for this engine, whoever made it. Returns the unsubscribe.
 * @param {object} engine the show engine
 * @param {(action: Action) => void} listener
 * @returns {() => void}
 */
export function onAction(engine, listener) {
  if (!listeners.has(engine)) listeners.set(engine, new Set());
  listeners.get(engine)?.add(listener);
  return () => listeners.get(engine)?.delete(listener);
}

/**
 * @param {{ info: (msg: string) => void }} log
 * @param {any} engine the show engine (status() after the action)
 * @param {string} source who acted, e.g. "control API", "OSC-in"; each call may name another (the console)
 * @returns {{ transport: (action: string, by?: string) => void, tempo: (bpm: number | null, by?: string, as?: string) => void, rehearsal: (on: boolean, by?: string) => void }}
 */
export function createTransportLog(log, engine, source) {
  const where = () => {
    const { transport, position, countIn } = engine.status();
    return standingWords({ transport, bar: position.bar, beat: position.beat, countIn: countIn?.beats });
  };
  const tell = (/** @type {Omit<Action, 'after'>} */ action) => {
    const set = listeners.get(engine);
    if (!set?.size) return;
    const { transport, position, tempo, countIn } = engine.status();
    const after = { transport, bar: position.bar, beat: position.beat, tempo, ...(countIn ? { countIn: countIn.beats } : {}) };
    const done = { ...action, after };
    for (const listener of set) listener(done);
  };
  return {
    transport: (action, by = source) => {
      log.info(`transport: ${action} → ${where()} (${by})`);
      tell({ by, kind: 'transport', what: action });
    },
    tempo: (bpm, by = source, as = bpm === null ? 'written tempo' : `${bpm} bpm`) => {
      log.info(`tempo: ${as === 'written tempo' ? 'back to the written tempo' : as} → ${engine.status().tempo} bpm now (${by})`);
      tell({ by, kind: 'tempo', what: as, bpm });
    },
    // docs/how-to/rehearse.md#rehearsal-mode: the record shows when the hall saw "the show starts soon".
    rehearsal: (on, by = source) => {
      log.info(`rehearsal mode ${on ? 'on: the audience sees "the show starts soon"' : 'off: the audience sees the show'} (${by})`);
      tell({ by, kind: 'rehearsal', what: on ? 'rehearsal mode on' : 'rehearsal mode off' });
    },
  };
}
