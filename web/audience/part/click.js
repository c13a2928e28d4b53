// The part page's optional click (README.md, "Part pages"): a short Web Audio tone on every beat
// (accented on the downbeat) or only on the count-in before the player's entries, started on the
// AudioContext's own clock at the beat's server time (the same mapping as the audience's cues,
// audio-clock.js), scheduled about a second ahead so a busy page cannot make it late.

import { contextTime, unlockAudioContext } from '../src/audio-clock.js';

/** Click modes, in the order the button cycles through them. */
export const CLICK_MODES = /** @type {const} */ (['off', 'countin', 'every']);
const TONE = { plain: { hz: 1000, gain: 0.3 }, accent: { hz: 1500, gain: 0.55 }, countIn: { hz: 2000, gain: 0.7 } };
const LENGTH_S = 0.04;

/**
 * @param {{ toLocal: (serverMs: number) => number }} options server ms → page clock ms
 */
export function createClick({ toLocal }) {
  /** @type {AudioContext | null} */
  let ctx = null;
  /** @type {Map<string, { osc: OscillatorNode, at: number, record: { cancelled: boolean } }>} */
  const pending = new Map();
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
      if (!ctx || ctx.state !== 'running' || pending.has(key)) return;
      const when = contextTime(ctx, toLocal(beat.at));
      if (when < ctx.currentTime) return; // its moment has passed: a late click is worse than none
      const tone = kind.countIn !== null ? TONE.countIn : kind.accent ? TONE.accent : TONE.plain;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = tone.hz;
      gain.gain.setValueAtTime(tone.gain, when);
      gain.gain.exponentialRampToValueAtTime(0.001, when + LENGTH_S);
      osc.connect(gain).connect(ctx.destination);
      osc.start(when);
      osc.stop(when + LENGTH_S);
      osc.onended = () => pending.delete(key);
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
