// The laptop must not sleep mid-concert: while the show plays, Electron's powerSaveBlocker keeps
// the display (and so the system) awake; when it pauses or stops, the blocker is released and
// the machine's own power settings apply again (docs/how-to/desktop-app.md#using-the-console).

/** 'prevent-display-sleep' also keeps the system awake; the composer keeps seeing the console. */
export const BLOCKER_TYPE = 'prevent-display-sleep';

/**
 * @param {{ powerSaveBlocker: { start: (type: string) => number, stop: (id: number) => void, isStarted: (id: number) => boolean } }} deps
 */
export function createKeepAwake({ powerSaveBlocker }) {
  /** @type {number | null} */
  let blocker = null;

  function release() {
    if (blocker === null) return;
    if (powerSaveBlocker.isStarted(blocker)) powerSaveBlocker.stop(blocker);
    blocker = null;
  }

  return {
    /**
     * Follow the show's transport.
     * @param {string | null | undefined} transport 'playing' | 'paused' | 'stopped'
     */
    follow(transport) {
      if (transport === 'playing') {
        if (blocker === null || !powerSaveBlocker.isStarted(blocker)) blocker = powerSaveBlocker.start(BLOCKER_TYPE);
      } else release();
    },
    release,
    /** Is sleep being prevented now? */
    active: () => blocker !== null && powerSaveBlocker.isStarted(blocker),
  };
}
