// Keeps the screen on during the show: the Screen Wake Lock API where the browser offers it (a
// secure context: the edge over HTTPS, or loopback), otherwise a muted, restarted video
// (keep-awake-video.js; any http:// LAN address). The lock is dropped by the browser whenever the
// page is hidden, so both are taken again on return; both are let go when the show is over.

import { createKeepAwakeVideo } from './keep-awake-video.js';

/** @param {{ video: HTMLVideoElement }} options */
export function createWakeLock({ video }) {
  const fallback = createKeepAwakeVideo(video);
  let joined = false;
  let showOver = false;
  /** @type {any} */
  let sentinel = null;
  /** @type {'wake-lock' | 'video' | null} */
  let method = null;

  const wanted = () => joined && !showOver;

  /** @type {Promise<void> | null} one request at a time (the tap and a visibilitychange may overlap) */
  let pending = null;

  function acquire() {
    pending ??= request().finally(() => {
      pending = null;
    });
    return pending;
  }

  async function request() {
    if (!wanted() || document.visibilityState !== 'visible') return;
    if (sentinel) return;
    if ('wakeLock' in navigator) {
      try {
        sentinel = await /** @type {any} */ (navigator).wakeLock.request('screen');
        sentinel.addEventListener('release', () => {
          sentinel = null;
        });
        method = 'wake-lock';
        if (!wanted()) release();
        return;
      } catch {
        // Refused (battery saver, no permission): fall back to the video below.
      }
    }
    method = 'video';
    await fallback.start();
  }

  function release() {
    if (sentinel) sentinel.release().catch(() => {});
    sentinel = null;
    fallback.stop();
  }

  return {
    /** From the Join tap: the video needs a user gesture to start. */
    enable() {
      joined = true;
      return acquire();
    },
    /** The show is over (stopped after playing), or started again: let the screen sleep, or keep it on again. */
    setShowOver(over) {
      if (over === showOver) return;
      showOver = over;
      if (wanted()) acquire();
      else release();
    },
    /** Page hidden: the browser drops the lock; the video is paused so it costs nothing. */
    hidden() {
      fallback.suspend();
    },
    reacquire: acquire,
    active: () => sentinel !== null || fallback.playing(),
    status: () => ({ wanted: wanted(), method, wakeLock: sentinel !== null, video: fallback.playing(), restarts: fallback.restarts() }),
  };
}
