// Keeps the screen on during the show where the browser offers the Screen Wake Lock API. The
// lock is dropped by the browser whenever the page is hidden, so it is taken again on return.

export function createWakeLock() {
  let wanted = false;
  /** @type {any} */
  let sentinel = null;

  async function acquire() {
    if (!wanted || sentinel || !('wakeLock' in navigator) || document.visibilityState !== 'visible') return;
    try {
      sentinel = await /** @type {any} */ (navigator).wakeLock.request('screen');
      sentinel.addEventListener('release', () => {
        sentinel = null;
      });
    } catch {
      // Refused (battery saver, no permission): the show goes on, the screen may dim.
    }
  }

  return {
    enable() {
      wanted = true;
      return acquire();
    },
    reacquire: acquire,
    active: () => sentinel !== null,
  };
}
