// Keyboard shortcuts for the stage: Space play/pause, Esc stop, G jump, [ ] sections, ↑ ↓ tempo.
// Typing in a field is never hijacked (Esc there just leaves the field).

const typing = (el) => el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));

/**
 * @param {{ togglePlay: () => void, stop: () => void, focusJump: () => void, sectionStep: (d: number) => void, tempoStep: (d: number) => void }} actions
 */
export function installShortcuts(actions) {
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    if (typing(target)) {
      if (e.key === 'Escape') /** @type {HTMLElement} */ (target).blur();
      return;
    }
    const run = {
      ' ': actions.togglePlay,
      Escape: actions.stop,
      g: actions.focusJump,
      G: actions.focusJump,
      '[': () => actions.sectionStep(-1),
      ']': () => actions.sectionStep(1),
      ArrowUp: () => actions.tempoStep(1),
      ArrowDown: () => actions.tempoStep(-1),
    }[e.key];
    if (!run) return;
    e.preventDefault(); // Space must not also press the focused button or scroll the page
    if (!e.repeat) run();
  });
  // A focused button activates on Space's keyup; the shortcut already handled it.
  document.addEventListener('keyup', (e) => {
    if (e.key === ' ' && !typing(e.target)) e.preventDefault();
  });
}
