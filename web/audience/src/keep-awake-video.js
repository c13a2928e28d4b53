// Keeps the screen on where the Screen Wake Lock API is missing or refused: a page opened at
// http://192.168.x.x is not a secure context, so phones on the venue's Wi-Fi have no
// navigator.wakeLock (web/audience/README.md, "Screen on"). A playing video holds the
// screen on instead. The video (assets/keep-awake-*.webm, 192 bytes, black) is muted, inline and
// looping, and laid over the whole viewport fully transparent behind the content: Chromium takes
// its video wake lock only for a muted video that is mostly visible and covers ≥ 20 % of the
// viewport, so a 1-pixel or display:none video would not keep the screen on.

/** @param {HTMLVideoElement} video the #keep-awake element of index.html */
export function createKeepAwakeVideo(video) {
  // The property as well as the attribute: autoplay policies look at the live `muted` state.
  video.muted = true;
  video.playsInline = true;
  let wanted = false;

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
  };
}
