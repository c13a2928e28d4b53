// The venue's reaction meter (docs/reference/audience-protocol.md#audience-voices): during a score's reaction window,
// the state carries `react` (the button text, when it opens and closes, the level 0–1) and the
// level is measured from the taps of venue phones plus the edge's every TICK_MS, published when it
// changes and sent over OSC (`/tutti/reaction level:f`).

import { createBeatWindow } from '#core/votes/beat-window.js';
import { createReactionRate, planReactions } from '#core/votes/reaction-rate.js';

/** The level is measured, published (when changed) and sent over OSC this often. */
export const TICK_MS = 250;
/** Without `full` in the score, level 1 is this many taps per second per connected viewer. */
export const TAPS_PER_VIEWER_AT_FULL = 3;

/**
 * @param {object} options
 * @param {ReturnType<typeof import('../show/show.js').createShow>} options.show
 * @param {() => number} options.now
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {() => number} options.viewers venue viewers plus the edge's
 * @param {(address: string, args: Array<string | number | { type: string, value: number }>) => void} [options.sendOsc]
 */
export function createReactionMeter({ show, now, metrics, viewers, sendOsc = () => {} }) {
  const engine = show.engine;
  let plan = planReactions(engine.score(), engine.timeline());
  /** @type {{ window: ReturnType<typeof planReactions>[number], opens: number, closes: number, level: number, rate: ReturnType<typeof createReactionRate> } | null} */
  let open = null;
  const beats = createBeatWindow({
    windowAt: (index) => plan.find((w) => w.open <= index && index < w.close),
    beatTime: (index) => engine.beatTime(index),
    endsWithWindow: true,
  });
  /** @type {NodeJS.Timeout | null} */
  let ticker = null;

  show.addStateExtra(() =>
    open ? { react: { label: open.window.label, opens: Math.round(open.opens), closes: Math.round(open.closes), level: open.level } } : {},
  );

  function stop() {
    if (ticker) clearInterval(ticker);
    ticker = null;
    if (!open) return false;
    open = null;
    metrics.reactionLevel.set(0);
    return true;
  }

  function tick() {
    if (!open) return;
    const t = now();
    if (t >= open.closes) {
      beats.drop();
      stop();
      show.republish();
      return;
    }
    const full = open.window.full ?? Math.max(1, TAPS_PER_VIEWER_AT_FULL * viewers());
    const { level } = open.rate.tick(t, full);
    metrics.reactionLevel.set(level);
    if (t >= open.opens) sendOsc('/tutti/reaction', [{ type: 'f', value: level }]);
    if (level !== open.level) {
      open.level = level;
      show.republish();
    }
  }

  /** Each published beat: open, follow or drop the window (core/votes/beat-window.js). */
  function onBeat(beat) {
    const step = beats.beat(beat);
    if (step.dropped && stop() && !step.opened) show.republish();
    const current = beats.current();
    if (step.opened) {
      open = {
        window: step.opened.window,
        opens: step.opened.opens,
        closes: step.opened.closes,
        level: 0,
        rate: createReactionRate({ now: now() }),
      };
      ticker = setInterval(tick, TICK_MS);
      show.republish();
    } else if (open && current) open.closes = current.closes; // a tempo change moves the end
  }
  const onTransport = (transport) => {
    if (transport === 'playing') return;
    beats.drop({ transport: true });
    // After the caller is done (a score load publishes its own snapshot first): see vote-desk.js.
    if (stop()) queueMicrotask(() => show.republish());
  };
  const onScore = () => {
    beats.drop({ transport: true });
    stop();
    plan = planReactions(engine.score(), engine.timeline());
  };
  // An edit applied while playing: later windows come from the edited score (docs/reference/score-editing-api.md#apply-while-playing).
  const onEdited = () => {
    plan = planReactions(engine.score(), engine.timeline());
  };
  const stopListening = show.listen({ beat: onBeat, transport: onTransport, score: onScore, edited: onEdited });

  return {
    /**
     * Taps from a venue phone or the edge; counted only while a window is open.
     * @param {number} n
     * @param {'venue' | 'edge'} where
     * @returns {boolean} whether they counted
     */
    tap(n, where) {
      // Rehearsal mode: phones see no window, so no taps count (docs/how-to/rehearse.md#rehearsal-mode).
      if (!open || show.rehearsal() || !Number.isSafeInteger(n) || n < 1) return false;
      open.rate.add(n);
      metrics.taps.inc({ where }, n);
      return true;
    },
    status: () => (open ? { label: open.window.label, opens: open.opens, closes: open.closes, level: open.level } : null),
    close() {
      stop();
      stopListening();
    },
  };
}
