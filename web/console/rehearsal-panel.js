// The console's Rehearsal card (docs/how-to/rehearse.md#rehearsing): start from a section, printed bar or bar
// with a count-in of N bars (shared with the audience or not), loop a range N times or until
// released, release (the L key), and a rehearsal tempo in percent. The card is built here and put
// under the Transport card, so the page's HTML stays as it is. Places are typed as the musicians
// say them: a section's mark ("C"), a bar ("17", "17, 3" with its beat) — the printed bar for an
// imported piece with printed numbers (docs/how-to/import.md#bringing-a-piece-in), else the running bar.

import { h, setText } from './dom.js';

/**
 * A place typed in the card, as the control API wants it.
 * @param {string} text
 * @param {{ sections: Array<{ mark: string }>, printedBars: unknown } | null} score
 * @returns {Record<string, unknown> | null}
 */
export function placeFromText(text, score) {
  const typed = text.trim();
  if (!typed) return null;
  const section = score?.sections.find((s) => s.mark.toLowerCase() === typed.toLowerCase());
  if (section) return { section: section.mark };
  const numbers = /^(\d+)\s*(?:[,:]\s*(\d+))?$/.exec(typed);
  if (!numbers) return { section: typed }; // the server names the marks it knows
  const bar = Number(numbers[1]);
  const beat = numbers[2] ? { beat: Number(numbers[2]) } : {};
  return Array.isArray(score?.printedBars) && score.printedBars.length ? { printedBar: bar, ...beat } : { bar, ...beat };
}

/**
 * @param {{ api: { post: (path: string, body?: any) => Promise<any> }, onStatus: (status: any) => void }} options
 */
export function createRehearsalPanel({ api, onStatus }) {
  /** @type {any} */
  let score = null;
  /** @param {string} id @param {Record<string, any>} props */
  const input = (id, props) => /** @type {HTMLInputElement} */ (h('input', { id, autocomplete: 'off', ...props }));
  const field = (label, control, title) => h('label', { class: 'field-sm', title }, label, ' ', control);
  const from = input('rehearse-from', { type: 'text', size: 6, placeholder: 'C or 17', dataset: { testid: 'rehearse-from' } });
  const to = input('rehearse-to', { type: 'text', size: 6, placeholder: 'same' });
  const bars = input('rehearse-countin', { type: 'number', min: 0, max: 8, step: 1, value: '1' });
  const passes = input('rehearse-passes', { type: 'number', min: 1, max: 99, step: 1, placeholder: '∞' });
  const shared = input('rehearse-audience', { type: 'checkbox' });
  const percent = input('rehearse-percent', { type: 'number', min: 10, max: 200, step: 5, value: '100' });
  const state = h('span', { id: 'rehearse-state', class: 'tag', dataset: { testid: 'rehearse-state' } });
  const error = h('p', { class: 'hint', id: 'rehearse-error', role: 'alert' });
  const button = (text, onclick, title) => h('button', { type: 'button', class: 'btn', text, onclick, title });
  const card = h(
    'section',
    { class: 'card card-rehearsal', 'aria-labelledby': 'h-rehearsal' },
    h('div', { class: 'card-head' }, h('h2', { id: 'h-rehearsal', text: 'Rehearsal' }), state),
    h(
      'div',
      { class: 'controls' },
      field('From', from, 'A section mark (C), or a bar and beat (17 or 17, 3): the printed bar of an imported piece'),
      field('Count-in', bars, 'Bars of count-in (0–8) at the tempo of the start, clicked on every part page and sent as /tutti/countin'),
      h('label', { class: 'check', title: 'The audience page shows "Starting in …"' }, shared, ' audience sees it'),
      button('Start (R)', () => start(), 'Start from there after the count-in'),
    ),
    h(
      'div',
      { class: 'controls' },
      field('Loop to', to, 'The last section or bar of the loop, included (empty: the section or bar "From" names)'),
      field('Passes', passes, 'How many times (empty: until released)'),
      button('Loop', () => loop(), 'Loop the range and start from its beginning'),
      button('Release (L)', () => release(), 'Leave the loop at the end of this pass'),
    ),
    h(
      'div',
      { class: 'controls' },
      field('Tempo %', percent, 'A rehearsal tempo: a percentage of the written tempo (10–200), shown on the part pages'),
      button('Set', () => tempo(Number(percent.value))),
      button('100 %', () => tempo(100)),
    ),
    error,
    h('p', { class: 'hint keys' }, h('kbd', { text: 'R' }), ' start from · ', h('kbd', { text: 'L' }), ' release the loop'),
  );
  // After the score card in the page, so the grid puts it under Transport, beside the score card.
  (document.querySelector('.card-score') ?? document.querySelector('.card-transport'))?.after(card);

  /** Run a command; show its error (the server's sentence) in the card. */
  async function run(path, body) {
    setText(error, '');
    try {
      show(await api.post(path, body));
    } catch (err) {
      setText(error, /** @type {Error} */ (err).message);
    }
  }
  const common = () => ({ countInBars: Number(bars.value || 0), audience: shared.checked });
  function start() {
    const place = placeFromText(from.value, score);
    if (!place) return setText(error, 'Type where to start: a section mark or a bar.');
    return run('/api/start', { from: place, ...common() });
  }
  function loop() {
    const place = placeFromText(from.value, score);
    if (!place) return setText(error, 'Type where the loop starts: a section mark or a bar.');
    const end = placeFromText(to.value, score);
    return run('/api/loop', { from: place, ...(end ? { to: end } : {}), passes: passes.value ? Number(passes.value) : null, ...common() });
  }
  const release = () => run('/api/loop/release');
  const tempo = (p) => run('/api/tempo', p === 100 ? { bpm: null } : { percent: p });

  /** A command's answer: the transport card and this one. */
  function show(status) {
    if (!status) return;
    onStatus(status);
    render(status);
  }

  /** What a status says of the rehearsal: the loop's pass, the tempo percentage. */
  function render(status) {
    if (!status) return;
    const l = status.loop;
    const parts = [];
    if (l)
      parts.push(`loop ${l.from.bar}–${l.to.bar} · pass ${l.pass}${l.of === null ? '' : ` of ${l.of}`}${l.releasing ? ' · released' : ''}`);
    if (typeof status.tempoPercent === 'number') parts.push(`${status.tempoPercent} %`);
    setText(state, parts.join(' · ') || 'off');
  }

  document.addEventListener('keydown', (e) => {
    const t = /** @type {HTMLElement} */ (e.target);
    if (
      e.defaultPrevented ||
      e.altKey ||
      e.ctrlKey ||
      e.metaKey ||
      ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName) ||
      t.isContentEditable
    )
      return;
    if (e.key === 'l' || e.key === 'L') release();
    else if (e.key === 'r' || e.key === 'R') start();
    else return;
    e.preventDefault();
  });

  return {
    /** @param {any} next the score summary (sections, printedBars) */
    setScore(next) {
      score = next;
      from.placeholder = next?.sections?.[0] ? `${next.sections[0].mark} or 17` : '17';
    },
    /** A status from the live feed (the snapshot, transport changes, and every second while a console looks: the loop's pass). */
    render,
  };
}
