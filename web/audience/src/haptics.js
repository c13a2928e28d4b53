// The optional haptic downbeat (docs/reference/accessibility-and-languages.md#accessibility): where the phone can
// vibrate (navigator.vibrate), a toggle — off until the listener turns it on, remembered on this
// phone — makes each downbeat a short buzz. Only downbeats, and never two closer than
// MIN_FLASH_GAP_MS (one-beat bars at a fast tempo would otherwise buzz without a break).

import { t } from './i18n.js';
import { MIN_FLASH_GAP_MS, createGapGate } from './flash-limit.js';

const STORAGE_KEY = 'tutti.vibrate';
const BUZZ_MS = 40;

function remembered() {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

/**
 * Wire the toggle button (hidden where the phone cannot vibrate) and return what the beat calls.
 * @param {HTMLButtonElement | null} button
 * @returns {{ beat: (b: { beat: number, at: number }) => void, enabled: () => boolean, supported: boolean }}
 */
export function createHaptics(button) {
  const supported = typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function';
  let on = supported && remembered();
  const gate = createGapGate(MIN_FLASH_GAP_MS);

  function render() {
    if (!button) return;
    button.hidden = !supported;
    button.textContent = t(on ? 'vibrate.on' : 'vibrate.off');
    button.setAttribute('aria-pressed', String(on));
  }

  button?.addEventListener('click', () => {
    on = !on;
    try {
      localStorage.setItem(STORAGE_KEY, on ? 'on' : 'off');
    } catch {
      // private mode: the choice lasts for this visit
    }
    render();
  });
  render();

  return {
    supported,
    enabled: () => on,
    beat(b) {
      if (on && b.beat === 1 && gate.pass(b.at)) navigator.vibrate(BUZZ_MS);
    },
  };
}
