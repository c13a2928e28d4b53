// The prompt on the phone (docs/reference/audience-protocol.md#audience-voices): the question and one large button per
// option exactly between `opens` and `closes` on the synced clock, then the result. A tap votes
// (on the WebSocket when the page has one, else POST vote); tapping another option changes the
// vote, and the server counts the device once whatever the page sends.

import { deviceId } from './device-id.js';
import { t } from './i18n.js';
import { announcer } from './announcer.js';
import { postVote } from './viewer-session.js';

/**
 * @typedef {{ id: string, key: string, q: string, options: { id: string, label: string }[], opens: number, closes: number,
 *   counts: number[], total: number, closed?: boolean, winner?: string }} VoteState
 */

/**
 * @param {object} options
 * @param {string} options.base the page URL (POST vote is relative to it)
 * @param {(serverMs: number) => number} options.toLocal server time → page clock
 * @param {() => number} options.serverNow the synced server time now
 * @param {(frame: object) => boolean} options.sendOnSocket sends on the open WebSocket; false when there is none
 */
export function createVotePanel({ base, toLocal, serverNow, sendOnSocket }) {
  const box = /** @type {HTMLElement} */ (document.getElementById('vote'));
  const question = /** @type {HTMLElement} */ (document.getElementById('vote-q'));
  const buttons = /** @type {HTMLElement} */ (document.getElementById('vote-options'));
  const result = /** @type {HTMLElement} */ (document.getElementById('vote-result'));
  const device = deviceId();
  /** @type {VoteState | null} */
  let vote = null;
  /** @type {string | null} the option this page chose for the current key */
  let chosen = null;
  /** @type {{ key: string, ok: boolean, reason?: string } | null} */
  let answer = null;
  let timer = 0;
  /** The phase last spoken for the current key: open, counting and the result are each said once. */
  let saidPhase = '';
  /** When the buttons appeared and went (server ms on the synced clock), for the browser tests. */
  const seen = { shownAt: null, hiddenAt: null };

  function send(option) {
    if (!vote) return;
    const body = { key: vote.key, option, device };
    if (sendOnSocket({ type: 'vote', ...body })) return;
    // On the edge a POST vote carries the viewer's session (viewer-session.js).
    postVote(base, body)
      .then((reply) => onAnswer(reply))
      .catch(() => {});
  }

  function onAnswer(reply) {
    if (!vote || !reply || reply.key !== vote.key) return;
    answer = { key: reply.key, ok: reply.ok === true, reason: reply.reason };
    render();
  }

  function build() {
    if (!vote) return;
    question.textContent = vote.q;
    buttons.replaceChildren(
      ...vote.options.map((option) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'vote-option';
        button.dataset.option = option.id;
        button.textContent = option.label;
        button.addEventListener('click', () => {
          if (!vote || button.disabled) return;
          chosen = option.id;
          send(option.id);
          render();
        });
        return button;
      }),
    );
  }

  /** Show what is due now; sleep until the next change of phase. */
  function render() {
    clearTimeout(timer);
    if (!vote) {
      box.hidden = true;
      return;
    }
    const now = serverNow();
    const open = now >= vote.opens && now < vote.closes && !vote.closed;
    box.hidden = now < vote.opens && !vote.closed;
    box.dataset.phase = vote.closed ? 'result' : open ? 'open' : now < vote.opens ? 'soon' : 'closed';
    if (open && seen.shownAt === null) seen.shownAt = now;
    if (!open && seen.shownAt !== null && seen.hiddenAt === null && now >= vote.closes) seen.hiddenAt = now;
    for (const button of /** @type {HTMLButtonElement[]} */ ([...buttons.children])) {
      button.disabled = !open;
      button.setAttribute('aria-pressed', String(button.dataset.option === chosen));
    }
    const total = vote.total || 0;
    if (vote.closed && vote.winner) {
      const i = vote.options.findIndex((o) => o.id === vote?.winner);
      result.textContent = t('vote.result', { label: vote.options[i]?.label ?? vote.winner, count: vote.counts[i] ?? 0, n: total });
    } else if (!open && now >= vote.closes) result.textContent = t('vote.counting');
    else if (chosen)
      result.textContent = answer?.ok === false ? t('vote.notCounted', { reason: answer.reason ?? t('vote.refused') }) : t('vote.in');
    else result.textContent = t('vote.soFar', { n: total });
    speak(box.dataset.phase);
    // Wake at the next phase change (opens or closes) on the page clock.
    const next = now < vote.opens ? vote.opens : now < vote.closes ? vote.closes : null;
    if (next !== null) timer = window.setTimeout(render, Math.max(0, toLocal(next) - performance.timeOrigin - performance.now()) + 1);
  }

  /** Open, closed and the result are spoken once each; the running count never is (it changes with every vote). */
  function speak(phase) {
    if (!vote || phase === saidPhase || phase === 'soon') return;
    saidPhase = phase;
    if (phase === 'open') say(t('vote.open', { question: vote.q, options: vote.options.map((o) => o.label).join(', ') }));
    else if (phase === 'closed') say(t('vote.counting'));
    else if (phase === 'result') say(t('vote.resultSaid', { result: result.textContent ?? '' }));
  }
  const say = (text) => announcer().say(text);

  return {
    /** @param {any} state the latest state */
    update(state) {
      const next = state?.vote && typeof state.vote.key === 'string' ? /** @type {VoteState} */ (state.vote) : null;
      if (next?.key !== vote?.key) {
        chosen = null;
        answer = null;
        seen.shownAt = null;
        seen.hiddenAt = null;
        saidPhase = '';
        vote = next;
        build();
      } else vote = next;
      render();
    },
    onAnswer,
    status: () => ({ key: vote?.key ?? null, phase: box.dataset.phase ?? null, chosen, answer, device, ...seen }),
  };
}
