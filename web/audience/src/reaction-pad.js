// The reaction button (docs/reference/audience-protocol.md#audience-voices): during a reaction window (the state's
// `react`, between `opens` and `closes` on the synced clock) a large Tap button and the
// audience's level as a meter. Taps are counted here and sent 4 times a second at most, 10 per
// report at most (more would be refused), on the WebSocket or with POST tap.

import { t } from './i18n.js';

const REPORT_MS = 250;
const MAX_PER_REPORT = 10;

/**
 * @param {object} options
 * @param {string} options.base
 * @param {() => number} options.serverNow
 * @param {(frame: object) => boolean} options.sendOnSocket
 */
export function createReactionPad({ base, serverNow, sendOnSocket }) {
  const box = /** @type {HTMLElement} */ (document.getElementById('react'));
  const button = /** @type {HTMLButtonElement} */ (document.getElementById('react-tap'));
  const meter = /** @type {HTMLElement} */ (document.getElementById('react-level'));
  /** @type {{ label: string, opens: number, closes: number, level: number } | null} */
  let react = null;
  let pending = 0;
  let sent = 0;
  let timer = 0;

  function report() {
    timer = 0;
    const n = Math.min(pending, MAX_PER_REPORT);
    pending = 0;
    if (n === 0) return;
    sent += n;
    if (!sendOnSocket({ type: 'tap', n })) {
      fetch(new URL('tap', base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) }).catch(
        () => {},
      );
    }
  }

  button.addEventListener('click', () => {
    if (!react) return;
    const now = serverNow();
    if (now < react.opens || now >= react.closes) return;
    pending += 1;
    if (!timer) timer = window.setTimeout(report, REPORT_MS);
  });

  function render() {
    const now = serverNow();
    const open = react !== null && now >= react.opens && now < react.closes;
    box.hidden = !open;
    if (!react) return;
    button.textContent = react.label;
    meter.style.width = `${Math.round(react.level * 100)}%`;
    box.setAttribute('aria-label', t('react.level', { n: Math.round(react.level * 100) }));
    if (now < react.opens) window.setTimeout(render, react.opens - now + 1);
    else if (now < react.closes) window.setTimeout(render, react.closes - now + 1);
  }

  return {
    /** @param {any} state */
    update(state) {
      const r = state?.react;
      react =
        r && Number.isFinite(r.opens) && Number.isFinite(r.closes)
          ? { label: String(r.label ?? t('react.tap')), opens: r.opens, closes: r.closes, level: Number(r.level) || 0 }
          : null;
      render();
    },
    status: () => ({ open: !box.hidden, level: react?.level ?? null, sent }),
  };
}
