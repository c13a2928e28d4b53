// Runs inside the editor's part-page preview frame (/console/editor/part.html, which is the part
// page's own markup, local-server/src/console/console-ui.js). It draws with the part page's own
// view code (web/audience/part/part-view.js, web/audience/shared/notation-view.js and
// notation-source.js, served as they are): bar:beat, the countdown to the part's next cue with what it says, the cues after
// it, and the engraved part with its cursor where the score has notation. The console hands it
// the cue table (from the editor's document, by core/score/part-cues.js as the server makes it)
// and a place with `show()`; nothing here talks to the show's stream.

import { createPartView } from '/console/web-audience/part/part-view.js';
import { createNotationView } from '/console/web-audience/shared/notation-view.js';
import { createNotationSource } from '/console/web-audience/shared/notation-source.js';
import { t } from '/console/web-audience/src/i18n.js';
import { cuesForPart, upcomingCues, sectionAt } from '/core/client/part-plan.js';
import { upcomingBars } from '/core/client/page-turns.js';
import { printedBarAt } from '/core/score/printed-bars.js';

/** Cues listed after the next one, as the part page lists them (web/audience/part/main.js). */
const LISTED = 5;

const view = createPartView();
/** @type {ReturnType<typeof createNotationSource> | null} */
let source = null;
// One notation view for the frame's life (it listens to keys and swipes); its source follows the
// part key the console knows (the pages come from local-server/src/console/console-part-notation.js).
const notation = createNotationView({
  source: {
    map: (part, layout, bars) => (source ? source.map(part, layout, bars) : Promise.resolve({ error: 'none' })),
    page: (url) => (source ? source.page(url) : Promise.resolve(null)),
  },
});
let loaded = '';
view.showPicker(false);
// The tablet's own tools (click, connection, vibrate, change part) are not part of the preview.
for (const id of ['click', 'conn', 'vibrate', 'change-part']) {
  const el = document.getElementById(id);
  if (el) el.hidden = true;
}

/**
 * What a part page shows at one place of the piece, stopped there.
 * @param {{ base: string | null, table: import('#core/score/part-cues.js').PartCueTable, part: string,
 *   at: { index: number, bar: number, beat: number, beats: number } }} state `base`: the part pages' keyed
 *   URL on the console's listener (/console/part/<key>/), null when the console has no key
 */
function show({ base, table, part, at }) {
  const name = part === '*' ? t('part.all') : (table.parts.find((p) => p.id === part)?.name ?? part);
  view.titles(name, table.score.title);
  const printedOf = (/** @type {number} */ bar) => printedBarAt(table.score.printedBars, bar, table.score.bars) || null;
  view.position(at, { flash: false, printed: printedOf(at.bar) });
  view.context(sectionAt(table.sections ?? [], at.index), t('part.stopped'));
  view.cues(upcomingCues(cuesForPart(table.cues, part), at.index, LISTED), printedOf);
  const wanted = table.score.notation && base ? `${base}|${part}|${table.score.bars}` : '';
  if (wanted !== loaded) {
    loaded = wanted;
    source = base ? createNotationSource({ base: new URL(base, location.href).href }) : null;
    if (wanted) void notation.load(part, table.score.bars);
    else notation.clear();
  }
  notation.follow(at, upcomingBars({ bar: at.bar, bars: table.score.bars }), false);
  document.body.dataset.previewPart = part;
  document.body.dataset.previewBar = String(at.bar);
  document.body.dataset.previewBeat = String(at.beat);
}

/** @type {any} */ (window).tuttiPart = { show, notation: () => notation.inspect() };
window.dispatchEvent(new Event('tutti-part-ready'));
