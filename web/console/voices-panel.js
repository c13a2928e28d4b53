// Audience voices (docs/reference/audience-protocol.md#audience-voices): the open prompt as a live bar chart (venue and
// edge votes per option, the total, then the winner and where the show jumps) and the reaction
// level as a meter. Fed by the console's `voices` events.

import { $, setText, fill, h } from './dom.js';

export function createVoicesPanel() {
  /**
   * @param {{ vote: any, reaction: any } | null | undefined} voices
   */
  function render(voices) {
    if (!voices) return;
    const { vote, reaction } = voices;
    const state = $('voices-state');
    if (!vote) {
      setText($('vote-question'), 'No prompt open.');
      fill($('vote-bars'));
      setText($('vote-total'), '');
      setText(state, reaction ? 'reacting' : 'idle');
      state.className = 'tag';
    } else {
      // A round that opened in rehearsal mode is the console's only (docs/how-to/rehearse.md#rehearsal-mode).
      const onlyHere = vote.rehearsal ? ' (rehearsal mode: the phones do not see it)' : '';
      setText($('vote-question'), `${vote.id}: ${vote.options.map((o) => o.label).join(' / ')}${onlyHere}`);
      const max = Math.max(1, ...vote.options.map((o) => o.count));
      fill(
        $('vote-bars'),
        ...vote.options.map((o) => {
          const bar = h('span', { class: 'vote-fill' });
          // CSSOM, not a style attribute: the console's CSP allows no inline styles.
          bar.style.width = `${Math.round((o.count / max) * 100)}%`;
          return h(
            'li',
            { class: `vote-row${vote.winner === o.id ? ' vote-winner' : ''}`, dataset: { option: o.id } },
            h('span', { class: 'vote-label', text: o.label }),
            h('span', { class: 'vote-bar' }, bar),
            h('span', { class: 'vote-count', text: String(o.count), title: `venue ${o.venue} · edge ${o.edge}` }),
          );
        }),
      );
      const jump = vote.branch ? ` · jumping at bar ${vote.branch.bar}` : '';
      setText($('vote-total'), `${vote.total} vote${vote.total === 1 ? '' : 's'}${vote.winner ? ` · ${vote.winner} wins${jump}` : ''}`);
      // Counting lasts only while the result waits for the edge's final count (docs/reference/audience-protocol.md#audience-voices).
      const edgeLate = vote.phase === 'closed' && vote.edge === 'timeout';
      setText(
        state,
        vote.phase === 'counting' ? 'counting · waiting for the edge' : edgeLate ? "closed · without the edge's final count" : vote.phase,
      );
      state.className = `tag ${vote.phase === 'open' ? 'tag-ok' : vote.phase === 'closed' && !edgeLate ? 'tag-accent' : 'tag-warn'}`;
    }
    const level = reaction ? reaction.level : 0;
    const fillEl = $('reaction-fill');
    fillEl.style.width = `${Math.round(level * 100)}%`;
    setText($('reaction-level'), reaction ? level.toFixed(2) : '—');
    $('reaction-meter').setAttribute('aria-valuenow', String(level));
  }
  return { render };
}
