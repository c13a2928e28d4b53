// One running show: the engine playing a score, the state stream it feeds (epoch, seq, deltas)
// and the hub that fans the stream out. Loading a score starts a new epoch; every viewer gets
// the new snapshot and resyncs.

import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createShowEngine } from '#core/score/engine.js';
import { createStateStream } from '#core/stream/state-stream.js';
import { deriveLeanState, LEAN_EPOCH_SUFFIX } from '#core/stream/lean-state.js';
import { createAheadStager } from '#core/stream/ahead-pieces.js';
import { createHub } from './hub/hub.js';

/**
 * A new epoch id: changes on every restart and every score load (README.md, "Audience endpoints").
 */
/** @typedef {ReturnType<typeof createShow>} Show the running show: engine, streams, hub, events */

export const newEpoch = () => randomBytes(6).toString('base64url');

/**
 * @param {object} options
 * @param {{ score: any, dir: string, path: string }} options.loaded a validated score and where it came from
 * @param {() => number} options.now server clock (ms)
 * @param {import('./metrics.js').Metrics} options.metrics
 * @param {number} [options.lookaheadMs]
 * @param {number} [options.replayLimit]
 * @param {object} [options.hubOptions]
 * @param {boolean} [options.aheadPieces] true: the full stream sends a chunk that starts later in pieces (core/stream/ahead-pieces.js); off by default, see README.md "flywheel"
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
  setTimer = (fn, ms) => setTimeout(fn, ms),
  clearTimer = (handle) => clearTimeout(/** @type {any} */ (handle)),
}) {
  // The show's one event surface (README.md, "Where things are"): `beat`, `osc-cue`, `transport`
  // from the engine, `envelope` (every envelope published: deltas, and the snapshot after a
  // score load) and `score` (another score was loaded).
  const events = new EventEmitter();
  let source = loaded;

  // The stream is created with a placeholder; the engine's first state replaces it below. Envelope
  // `t` in whole ms (as in README.md's envelope example, "Audience endpoints"; fewer bytes than a
  // fractional clock reading).
  const stream = createStateStream({ epoch: newEpoch(), state: {}, now: () => Math.round(now()), replayLimit });
  // The lean stream (README.md, `?stream=lean`): its own seq space and epoch id, derived from
  // every full state in order, encoded once per update for all its clients.
  const leanStream = createStateStream({
    epoch: `${stream.epoch()}${LEAN_EPOCH_SUFFIX}`,
    state: {},
    now: () => Math.round(now()),
    replayLimit,
  });
  /** @type {Record<string, unknown> | null} */
  let lean = null;
  const hub = createHub({ stream, leanStream, metrics, now, ...hubOptions });
  // With aheadPieces the full stream gets a chunk that starts later in pieces, one per update, so
  // no beat's delta carries a whole chunk to every viewer (core/stream/ahead-pieces.js). The lean
  // stream is derived from the engine's state as it is: it changes once per window anyway. Off by
  // default: the edge derives its lean stream from the full one, where pieces mean ~6 small lean
  // updates per window instead of one (README.md, "flywheel").
  const stager = createAheadStager();

  /** Start both streams in a new epoch with the engine's current state. */
  const resetStreams = (epoch) => {
    const state = fullState();
    stager.reset(state);
    stream.reset(epoch, state);
    lean = deriveLeanState(null, state);
    leanStream.reset(`${epoch}${LEAN_EPOCH_SUFFIX}`, lean);
  };

  /** @type {Array<() => Record<string, unknown>>} parts of the state kept outside the engine (the vote tally) */
  const extras = [];
  /** The engine's state with the extras merged in. */
  const fullState = (state = engine.state()) => (extras.length === 0 ? state : Object.assign({}, state, ...extras.map((extra) => extra())));

  const publish = (engineState) => {
    const state = fullState(engineState);
    const update = stream.update(aheadPieces ? stager.stage(state) : state);
    if (!update) return;
    hub.broadcast(update.seq, update.json);
    events.emit('envelope', update.json);
    lean = deriveLeanState(lean, state);
    const leanUpdate = leanStream.update(lean);
    if (leanUpdate) hub.broadcast(leanUpdate.seq, leanUpdate.json, 'lean');
  };

  const engine = createShowEngine({
    score: loaded.score,
    now,
    lookaheadMs,
    setTimer,
    clearTimer,
    onState: publish,
    onBeat: (beat) => events.emit('beat', beat),
    onOscCue: (cue) => events.emit('osc-cue', cue),
    onTransport: (transport) => events.emit('transport', transport),
  });
  resetStreams(stream.epoch());
  metrics.seq.set(0);

  return {
    engine,
    stream,
    leanStream,
    /**
     * The stream a `?stream=` query selects (README.md): `lean`, else the full one.
     * @param {unknown} name
     */
    streamNamed: (name) => (name === 'lean' ? leanStream : stream),
    hub,
    events,
    /**
     * Listen to several of the show's events at once (beat, osc-cue, transport, score, envelope).
     * @param {Partial<Record<'beat' | 'osc-cue' | 'transport' | 'score' | 'envelope', (value: any) => void>>} handlers
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
     * @param {{ score: any, dir: string, path: string }} next
     */
    load(next) {
      source = next;
      // engine.load() publishes nothing: the new score goes out as one snapshot in a new epoch.
      engine.load(next.score);
      resetStreams(newEpoch());
      metrics.seq.set(0);
      hub.broadcastSnapshot();
      events.emit('envelope', stream.snapshot().json);
      events.emit('score', next);
    },
    /**
     * Add keys to every state published (README.md, "Audience voices": `vote`). `extra` is
     * called on every publish; call republish() when what it returns changes.
     * @param {() => Record<string, unknown>} extra
     */
    addStateExtra(extra) {
      extras.push(extra);
    },
    /** Publish the current state again (an extra changed between engine updates). */
    republish() {
      publish(engine.state());
    },
    close() {
      engine.dispose();
      hub.close();
    },
  };
}
