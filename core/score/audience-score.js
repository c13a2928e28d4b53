// The engraved score on the audience's phones (docs/reference/notation.md#the-score-on-the-audiences-phones):
// a view's `score` key names a part (or "all") whose phone pages the audience page shows with a
// cursor. The pages and the bar map are served as score media, under one URL scheme on the venue
// and at the edge (`media/notation/<part>/<layout>.json`, `media/notation/<part>/<layout>/<n>.svg`),
// and only for the parts some view of the score names: the audience never browses the others.
// Runtime-free: the validator, the venue's routes, the edge upload and the audience page share it.

/** The media folder the engraved pages are served under (a score's own assets may not use it). */
export const NOTATION_MEDIA_DIR = 'notation';

/** The page shape the audience gets (local-server/src/notation/layouts.js). */
export const AUDIENCE_NOTATION_LAYOUT = 'phone';

/** What `score` may name besides a part id: the full score. */
export const FULL_SCORE = 'all';

const PART = '[A-Za-z0-9][A-Za-z0-9_-]{0,63}';
const LAYOUT = '[a-z][a-z-]{0,31}';
const MEDIA_PATH = new RegExp(`^${NOTATION_MEDIA_DIR}/(${PART})/(${LAYOUT})(?:\\.json|/(\\d{1,5})\\.svg)$`);

/**
 * The media path (relative to `media/`) of a part's bar map.
 * @param {string} part a part id, or "all"
 * @param {string} [layout]
 * @returns {string}
 */
export function notationMapPath(part, layout = AUDIENCE_NOTATION_LAYOUT) {
  return `${NOTATION_MEDIA_DIR}/${encodeURIComponent(part)}/${layout}.json`;
}

/**
 * The media path (relative to `media/`) of one engraved page.
 * @param {string} part a part id, or "all"
 * @param {number} page 1-based
 * @param {string} [layout]
 * @returns {string}
 */
export function notationPagePath(part, page, layout = AUDIENCE_NOTATION_LAYOUT) {
  return `${NOTATION_MEDIA_DIR}/${encodeURIComponent(part)}/${layout}/${page}.svg`;
}

/**
 * What a decoded media path under `notation/` names, or null when it names nothing engraved.
 * @param {string} path relative to `media/`, percent-decoded
 * @returns {{ part: string, layout: string, page: number | null } | null} page null: the bar map
 */
export function parseNotationMediaPath(path) {
  const match = MEDIA_PATH.exec(path);
  if (!match) return null;
  return { part: match[1], layout: match[2], page: match[3] === undefined ? null : Number(match[3]) };
}

/**
 * Whether a media path is in the engraved pages' folder.
 * @param {string} path relative to `media/`
 * @returns {boolean}
 */
export function isNotationMedia(path) {
  return path.startsWith(`${NOTATION_MEDIA_DIR}/`);
}

/**
 * The parts (or "all") a score shows the audience: named by its initial view or a view cue.
 * @param {{ view?: Record<string, unknown>, cues?: ReadonlyArray<{ view?: Record<string, unknown> }> } | null | undefined} score
 * @returns {string[]} in first-named order, each once
 */
export function partsShownToAudience(score) {
  const shown = new Set();
  const take = (view) => {
    const part = view?.score;
    if (typeof part === 'string') shown.add(part);
  };
  take(score?.view);
  for (const cue of score?.cues ?? []) take(cue.view);
  return [...shown];
}
