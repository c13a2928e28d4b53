// Audio cues through Web Audio, started at their scheduled time on the synced clock. A cue
// arrives ~300 ms before it sounds; it is scheduled on the AudioContext's own clock right away
// (sample-accurate), not fired from a JS timer. Buffers are fetched and decoded once per URL.

import { contextTime, unlockAudioContext } from './audio-clock.js';

/**
 * @param {object} options
 * @param {string} options.base
 * @param {(serverMs: number) => number} options.toLocal server ms → page clock ms
 */
export function createAudioPlayer({ base, toLocal }) {
  /** @type {AudioContext | null} */
  let ctx = null;
  /** @type {Map<string, Promise<AudioBuffer>>} */
  const buffers = new Map();
  /** @type {Map<string, { source: AudioBufferSourceNode, at: number }>} */
  const scheduled = new Map();
  const played = [];

  function load(src) {
    let p = buffers.get(src);
    if (!p) {
      p = fetch(new URL(src, base))
        .then((res) => {
          if (!res.ok) throw new Error(`${src}: HTTP ${res.status}`);
          return res.arrayBuffer();
        })
        .then((bytes) => /** @type {AudioContext} */ (ctx).decodeAudioData(bytes));
      p.catch(() => buffers.delete(src)); // retry on the next cue
      buffers.set(src, p);
    }
    return p;
  }

  return {
    /** Must run inside a user gesture (the Join tap). */
    async unlock() {
      ctx = await unlockAudioContext(ctx);
      return ctx !== null && ctx.state === 'running';
    },
    unlocked: () => ctx !== null && ctx.state === 'running',
    /** @param {string[]} srcs */
    preload(srcs) {
      if (ctx) for (const src of srcs) load(src).catch(() => {});
    },
    /**
     * Schedule a cue `{cue, src, gain, at}`; a cue already late by less than half a second
     * starts part-way through so it still ends in time; later than that it is skipped.
     * @param {{ cue: number, src: string, gain?: number, at: number }} cue
     */
    async play(cue) {
      if (!ctx || typeof cue.src !== 'string') return;
      const key = `${cue.cue}@${cue.at}`;
      if (scheduled.has(key)) return;
      scheduled.set(key, { source: /** @type {any} */ (null), at: cue.at });
      let buffer;
      try {
        buffer = await load(cue.src);
      } catch (err) {
        played.push({ key, error: String(err.message) });
        scheduled.delete(key);
        return;
      }
      if (!scheduled.has(key)) return; // cancelled while loading
      if (ctx.state !== 'running') {
        // resume() has not (yet) taken: its clock stands still, so a cue put on it would sound late.
        played.push({ key, skipped: true, suspended: true });
        scheduled.delete(key);
        return;
      }
      const when = contextTime(ctx, toLocal(cue.at));
      const late = ctx.currentTime - when;
      if (late > 0.5) {
        played.push({ key, skipped: true, late });
        scheduled.delete(key);
        return;
      }
      const source = ctx.createBufferSource();
      source.buffer = buffer;
      const gain = ctx.createGain();
      gain.gain.value = Number.isFinite(cue.gain) ? Math.max(0, Math.min(4, /** @type {number} */ (cue.gain))) : 1;
      source.connect(gain).connect(ctx.destination);
      source.start(Math.max(when, ctx.currentTime), Math.max(0, late));
      source.onended = () => scheduled.delete(key);
      scheduled.set(key, { source, at: cue.at });
      // What the tests check: the cue was started ahead, on the audio clock, at its server time.
      played.push({
        key,
        at: cue.at,
        when,
        late: Math.max(0, late),
        ctxNow: ctx.currentTime,
        perfNow: performance.now(),
        duration: buffer.duration,
      });
      if (played.length > 100) played.shift();
    },
    /** The server took back what it had announced (stop, seek): silence cues not yet sounding. */
    cancelFrom(serverMs) {
      for (const [key, entry] of scheduled) {
        if (entry.at >= serverMs) {
          try {
            entry.source?.stop();
          } catch {
            // not started yet / already ended
          }
          scheduled.delete(key);
        }
      }
    },
    played: () => [...played],
  };
}
