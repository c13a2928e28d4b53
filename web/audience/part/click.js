// The part page's optional click (docs/how-to/part-pages.md#part-pages): a short Web Audio tone on every beat
// (accented on the downbeat) or only on the count-in before the player's entries, started on the
// AudioContext's own clock at the beat's server time (the same mapping as the audience's cues,
// audio-clock.js), scheduled about a second ahead so a busy page cannot make it late.

import { contextTime, unlockAudioContext } from '../src/audio-clock.js';

/** Click modes, in the order the button cycles through them. */
export const CLICK_MODES = /** @type {const} */ (['off', 'countin', 'every']);
const TONE = { plain: { hz: 1000, gain: 0.3 }, accent: { hz: 1500, gain: 0.55 }, countIn: { hz: 2000, gain: 0.7 } };
const LENGTH_S = 0.04;
/** How many sounded keys are remembered: far more than the clicks of one horizon. */
const SOUNDED_KEPT = 1024;
/**
 * A young context's clock is not yet steady: WebKit's currentTime jumped 0.060 → 0.134 s within
 * one scheduling call, so a click put on the clock at 0.060 s sounded 73 ms late. No click is put
 * on the clock before the context has run this long; one due later is scheduled at once, so a
 * count-in started right after the click was switched on (one lookahead, 300 ms, ahead) keeps
 * its first click.
 */
const WARM_UP_S = 0.25;

/**
 * @param {{ toLocal: (serverMs: number) => number }} options server ms → page clock ms
 */
export function createClick({ toLocal }) {
  /** @type {AudioContext | null} */
  let ctx = null;
  /** @type {Map<string, { osc: OscillatorNode, at: number, record: { cancelled: boolean } }>} */
  const pending = new Map();
  /**
   * Keys that have sounded (insertion order, the oldest dropped past SOUNDED_KEPT): a click whose
   * tone ended before the page's clock reached its beat (the audio and page clocks disagree by a
   * few ms on a busy page) must not be put on the audio clock a second time.
   * @type {Set<string>}
   */
  const sounded = new Set();
  const scheduled = [];

  return {
    /** Must run inside a user gesture (the click button). */
    async unlock() {
      ctx = await unlockAudioContext(ctx);
      return ctx !== null && ctx.state === 'running';
    },
    ready: () => ctx !== null && ctx.state === 'running',
    /**
     * Schedule one click (once per key) at server time `at`.
     * @param {string} key
     * @param {{ index: number, bar: number, beat: number, at: number }} beat
     * @param {{ accent: boolean, countIn: number | null }} kind
     */
    schedule(key, beat, kind) {
      if (!ctx || ctx.state !== 'running' || pending.has(key) || sounded.has(key)) return;
      const when = contextTime(ctx, toLocal(beat.at));
      if (when < ctx.currentTime) return; // its moment has passed: a late click is worse than none
      if (when < WARM_UP_S) return; // inside the context's unsteady start
      const tone = kind.countIn !== null ? TONE.countIn : kind.accent ? TONE.accent : TONE.plain;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = tone.hz;
      gain.gain.setValueAtTime(tone.gain, when);
      gain.gain.exponentialRampToValueAtTime(0.001, when + LENGTH_S);
      osc.connect(gain).connect(ctx.destination);
      osc.start(when);
      osc.stop(when + LENGTH_S);
      osc.onended = () => {
        if (pending.get(key)?.osc !== osc) return; // cancelled (it may be scheduled again), or replaced
        pending.delete(key);
        sounded.add(key);
        if (sounded.size > SOUNDED_KEPT) sounded.delete(sounded.values().next().value);
      };
      // What the tests check: each click was put on the audio clock ahead of time, at its beat's server time.
      const record = {
        key,
        index: beat.index,
        bar: beat.bar,
        beat: beat.beat,
        at: beat.at,
        when,
        ctxNow: ctx.currentTime,
        perfNow: performance.now(),
        accent: kind.accent,
        countIn: kind.countIn,
        cancelled: false,
      };
      pending.set(key, { osc, at: beat.at, record });
      scheduled.push(record);
      if (scheduled.length > 500) scheduled.shift();
    },
    /** The show re-anchored or stopped (or the click was switched off): silence clicks not yet sounding. */
    cancelFrom(serverMs) {
      for (const [key, entry] of pending) {
        if (entry.at < serverMs) continue;
        try {
          entry.osc.stop();
        } catch {
          // already ended
        }
        entry.record.cancelled = true;
        pending.delete(key);
      }
    },
    scheduled: () => scheduled.slice(),
  };
}
