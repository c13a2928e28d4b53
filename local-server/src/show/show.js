// One running show: the engine playing a score, the state stream it feeds (epoch, seq, deltas)
// and the hub that fans the stream out. Loading a score starts a new epoch; every viewer gets
// the new snapshot and resyncs. What goes out on the streams (extras, rehearsal mode, the lean
// stream) is show-streams.js; this file wires the engine to it and keeps the show's events.

import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createShowEngine } from '#core/engine/engine.js';
import { createShowStreams } from './show-streams.js';

/** @typedef {ReturnType<typeof createShow>} Show the running show: engine, streams, hub, events */

/** A new epoch id: changes on every restart and every score load (docs/reference/audience-protocol.md#endpoints). */
export const newEpoch = () => randomBytes(6).toString('base64url');

/**
 * @param {object} options
 * @param {{ score: any, dir: string, path: string }} options.loaded a validated score and where it came from
 * @param {() => number} options.now server clock (ms)
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {number} [options.lookaheadMs]
 * @param {number} [options.replayLimit]
 * @param {object} [options.hubOptions]
 * @param {boolean} [options.aheadPieces] true: the full stream sends a chunk that starts later in pieces (core/stream/ahead-pieces.js); off by default, see docs/explanation/clock-sync.md#the-flywheel
 * @param {number} [options.lookAheadDelayMs] how long an action's look-ahead waits on the lean stream (show-streams.js, LOOK_AHEAD_DELAY_MS)
 * @param {(fn: () => void, ms: number) => unknown} [options.setTimer] the engine's timer (default setTimeout; the record benchmark injects a simulated clock)
 * @param {(handle: unknown) => void} [options.clearTimer]
 */
export function createShow({
  loaded,
  now,
  metrics,
  lookaheadMs,
  replayLimit = 512,
  hubOptions = {},
  aheadPieces = false,
  lookAheadDelayMs,
  setTimer = (fn, ms) => setTimeout(fn, ms),
  clearTimer = (handle) => clearTimeout(/** @type {any} */ (handle)),
}) {
  // The show's one event surface (docs/explanation/architecture.md#where-things-are): `beat`, `osc-cue`, `transport`
  // and `countin` (a count-in's clicks ahead of time, or `{cancelled, reason}`) from the engine,
  // `envelope` (every envelope published: deltas, and the snapshot after a score load), `score`
  // (another score was loaded) and `rehearsal` (rehearsal mode on/off).
  const events = new EventEmitter();
  let source = loaded;
  const published = createShowStreams({
    epoch: newEpoch(),
    now,
    metrics,
    replayLimit,
    hubOptions,
    onEnvelope: (json) => events.emit('envelope', json),
    aheadPieces,
    lookAheadDelayMs,
    setTimer,
    clearTimer,
  });
  const { stream, leanStream, hub } = published;

  const engine = createShowEngine({
    score: loaded.score,
    now,
    lookaheadMs,
    setTimer,
    clearTimer,
    onState: published.publish,
    onBeat: (beat) => events.emit('beat', beat),
    onOscCue: (cue) => events.emit('osc-cue', cue),
    onTransport: (transport) => events.emit('transport', transport),
    onCountIn: (click) => events.emit('countin', click),
  });
  published.reset(stream.epoch(), engine.state());
  metrics.seq.set(0);

  return {
    engine,
    stream,
    leanStream,
    /** Whether an action's look-ahead still waits to go out on the lean stream (show-streams.js). */
    lookAheadWaiting: published.lookAheadWaiting,
    /**
     * The stream a `?stream=` query selects (docs/README.md): `lean`, else the full one.
     * @param {unknown} name
     */
    streamNamed: (name) => (name === 'lean' ? leanStream : stream),
    hub,
    events,
    /**
     * Listen to several of the show's events at once (beat, osc-cue, transport, score, envelope, countin, rehearsal).
     * @param {Partial<Record<'beat' | 'osc-cue' | 'transport' | 'score' | 'edited' | 'envelope' | 'countin' | 'rehearsal', (value: any) => void>>} handlers
     * @returns {() => void} stop listening to all of them
     */
    listen(handlers) {
      const pairs = Object.entries(handlers).filter(([, fn]) => typeof fn === 'function');
      for (const [name, fn] of pairs) events.on(name, fn);
      return () => {
        for (const [name, fn] of pairs) events.off(name, fn);
      };
    },
    /** Where the current score came from. */
    source: () => source,
    /**
     * Swap in another validated score: new epoch, everyone resyncs.
     * @param {{ score: any, dir: string, path: string, revision?: string }} next
     */
    load(next) {
      source = next;
      // engine.load() publishes nothing: the new score goes out as one snapshot in a new epoch.
      engine.load(next.score);
      published.reset(newEpoch(), engine.state());
      metrics.seq.set(0);
      hub.broadcastSnapshot();
      events.emit('envelope', stream.snapshot().json);
      events.emit('score', next);
    },
    /**
     * Apply an edited score at once while playing or paused (docs/reference/score-editing-api.md#apply-while-playing):
     * same epoch, same position, no cue sent twice. Emits `edited`, not `score` (votes and
     * reactions carry on).
     * @param {{ score: any, dir: string, path: string, revision?: string }} next
     * @returns {string | null} why it cannot be applied (nothing changed), or null when applied
     */
    applyLive(next) {
      const problem = engine.applyLive(next.score);
      if (problem) return problem;
      source = next;
      events.emit('edited', next);
      return null;
    },
    /**
     * Add keys to every state published (docs/reference/audience-protocol.md#audience-voices: `vote`). `extra` is
     * called on every publish; call republish() when what it returns changes.
     * @param {() => Record<string, unknown>} extra
     */
    addStateExtra(extra) {
      published.addExtra(extra);
    },
    /** Whether rehearsal mode is on (docs/how-to/rehearse.md#rehearsal-mode). */
    rehearsal: published.rehearsal,
    /**
     * Turn rehearsal mode on or off and publish the state at once (one delta for every viewer).
     * @param {boolean} on
     * @returns {boolean} whether it changed
     */
    setRehearsal(on) {
      if (!published.setRehearsal(on)) return false;
      published.publish(engine.state());
      events.emit('rehearsal', on);
      return true;
    },
    /** Publish the current state again (an extra changed between engine updates). */
    republish() {
      published.publish(engine.state());
    },
    close() {
      engine.dispose();
      published.close();
    },
  };
}
