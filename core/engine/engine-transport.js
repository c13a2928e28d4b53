// The engine's transport (core/engine/engine.js): whether the show stops, plays or pauses, and the
// operator's moves in time — play, pause, stop, seek. Each move resets the position through its
// one reset (show-position.js) and leaves the clock (beat-clock.js) to publish.

import { checkBarBeat } from './engine-limits.js';

/**
 * @typedef {object} TransportState
 * @property {import('./engine-context.js').Transport} value
 * @property {() => boolean} playing
 * @property {(next: import('./engine-context.js').Transport) => void} set change it, telling onTransport when it really changes
 */

/**
 * The transport, stopped.
 * @param {(transport: import('./engine-context.js').Transport) => void} onTransport
 * @returns {TransportState}
 */
export function createTransportState(onTransport) {
  /** @type {TransportState} */
  const transport = {
    value: 'stopped',
    playing: () => transport.value === 'playing',
    set(next) {
      if (transport.value === next) return;
      transport.value = next;
      onTransport(next);
    },
  };
  return transport;
}

/**
 * The operator's transport moves (the engine's play, pause, stop, seek).
 * @param {import('./engine-context.js').ShowContext} show
 */
export function createTransportMoves(show) {
  const { at, transport, clock, rehearsal } = show;
  return {
    /** Start or resume playing. */
    play() {
      if (transport.playing()) return;
      rehearsal.cancelCountIn('play');
      if (at.playFrom >= show.loaded.timeline.totalBeats) at.playFrom = 0;
      clock.startAt(at.playFrom);
    },
    /** Hold the position; play resumes with the next beat. */
    pause() {
      if (rehearsal.cancelCountIn('paused')) show.emitState();
      if (!transport.playing()) return;
      clock.cancel();
      at.jump = null;
      at.playFrom = at.current + 1;
      transport.set('paused');
      show.emitState();
    },
    /** Stop and return to the start of the piece. */
    stop() {
      clock.cancel();
      const hadRehearsal = rehearsal.clear('stopped');
      const wasStopped = transport.value === 'stopped' && at.current === 0 && !hadRehearsal;
      at.moveTo(0, show.now(), 0);
      transport.set('stopped');
      if (!wasStopped) show.emitState();
    },
    /**
     * Jump to a bar/beat. While playing, that beat sounds one lookahead from now.
     * @param {number} bar
     * @param {number} [beat]
     */
    seek(bar, beat = 1) {
      const index = checkBarBeat(show.loaded.timeline, bar, beat);
      rehearsal.cancelCountIn('seek');
      rehearsal.movedTo(index);
      if (transport.playing()) {
        // The beat shown moves when the new beat is published; what it shows changes now.
        at.showFrom(index);
        clock.startAt(index);
      } else {
        at.moveTo(index, show.now(), index);
        show.emitState();
      }
    },
    /** The beat play() would start from. */
    playFrom: () => (at.playFrom >= show.loaded.timeline.totalBeats ? 0 : at.playFrom),
  };
}
