// Keeps the screen on where the Screen Wake Lock API is missing or refused: a page opened at
// http://192.168.x.x is not a secure context, so phones on the venue's Wi-Fi have no
// navigator.wakeLock (docs/explanation/browser-differences.md#screen-on-service-worker-plain-http). A playing video holds the
// screen on instead. The video (assets/keep-awake-*.webm, ~1 KB, black, with a silent audio track:
// keep-awake-webm.js) is muted and inline, and laid over the whole viewport fully transparent
// behind the content: Chromium takes its video wake lock only for a muted video that is mostly
// visible and covers ≥ 20 % of the viewport, so a 1-pixel or display:none video would not keep the
// screen on. It is restarted rather than looped, as NoSleep.js does: WebKit's `loop` stalled after
// the first pass (a seek to 0 that never completed), so the clip is sent back into its first
// second before it can end, and played again should it end anyway.

/** Past this point (s) the clip is sent back into its first second, well before its 2 s end. */
const RESTART_AFTER_S = 1.2;

/** @param {HTMLVideoElement} video the #keep-awake element of index.html */
export function createKeepAwakeVideo(video) {
  // The property as well as the attribute: autoplay policies look at the live `muted` state.
  video.muted = true;
  video.playsInline = true;
  video.loop = false;
  let wanted = false;
  let restarts = 0;
  video.addEventListener('timeupdate', () => {
    if (wanted && !video.seeking && video.currentTime > RESTART_AFTER_S) {
      restarts += 1;
      video.currentTime = Math.random() * 0.5;
    }
  });
  video.addEventListener('ended', () => {
    if (!wanted || document.visibilityState !== 'visible') return;
    restarts += 1;
    video.play().catch(() => {});
  });

  return {
    /** Start (or resume) the loop; must first be called from a tap (autoplay policy). */
    async start() {
      wanted = true;
      if (document.visibilityState !== 'visible' || !video.paused) return;
      try {
        await video.play();
      } catch {
        // Refused (data saver, no user gesture yet): the show goes on, the screen may dim.
      }
    },
    /** Pause the loop (show over, or page hidden) and let the screen sleep. */
    stop() {
      wanted = false;
      video.pause();
    },
    /** Pause while hidden without forgetting that it is wanted back. */
    suspend() {
      video.pause();
    },
    wanted: () => wanted,
    playing: () => !video.paused,
    /** How often the clip was sent back to its start (for the tests). */
    restarts: () => restarts,
  };
}
