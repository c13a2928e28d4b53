// Rehearsal mode in the console (docs/how-to/rehearse.md#rehearsal-mode): one toggle in the top bar that
// always says what the hall sees — the show, or the "Rehearsal — the show starts soon" screen —
// and, while rehearsal mode is on, a stripe under the top bar that cannot be missed. The state
// comes from the server (the live feed's transport status), so a change made over OSC-in or the
// control API shows here too.

import { $, setText } from './dom.js';

/** @param {{ api: { post: (path: string, body: object) => Promise<any> } }} deps */
export function createRehearsalMode({ api }) {
  const button = /** @type {HTMLButtonElement} */ ($('rehearsal-toggle'));
  const stripe = $('rehearsal-stripe');
  const error = $('rehearsal-error');
  let on = false;

  /** @param {{ rehearsal?: boolean } | null | undefined} status the transport status (or /api/status) */
  function render(status) {
    if (typeof status?.rehearsal !== 'boolean') return;
    on = status.rehearsal;
    button.setAttribute('aria-pressed', String(on));
    button.classList.toggle('on', on);
    setText(button, on ? 'Hall sees: rehearsal screen' : 'Hall sees: the show');
    button.title = on ? 'Show the audience the show (leave rehearsal mode)' : 'Put the audience on the "the show starts soon" screen';
    stripe.hidden = !on;
    document.body.classList.toggle('rehearsing', on);
  }

  async function set(next) {
    button.disabled = true;
    setText(error, '');
    try {
      render(await api.post('/api/rehearsal-mode', { on: next }));
    } catch (err) {
      setText(error, `Rehearsal mode: ${err.message}`);
    } finally {
      button.disabled = false;
    }
  }

  button.addEventListener('click', () => set(!on));
  $('rehearsal-leave').addEventListener('click', () => set(false));
  return { render, on: () => on };
}
