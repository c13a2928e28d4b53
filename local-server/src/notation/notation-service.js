// The venue's notation (docs/reference/notation.md): when a score that names a notation file is
// loaded, the file is read and every part (and the full score, "all") is engraved in every layout
// in the background by the engraver (engraver.js), each engraving kept on disk
// (notation-cache.js) and never made twice; a request a tablet waits for jumps the queue. What
// the routes ask (routes/notation.js) is answered from here, and /api/status shows the progress.

import { ImportError } from '#core/import/import-error.js';
import { AUDIENCE_NOTATION_LAYOUT, notationMapPath, notationPagePath, partsShownToAudience } from '#core/score/audience-score.js';
import { buildBarMap, notationMismatch } from './bar-map.js';
import { createEngraver } from './engraver.js';
import { LAYOUTS } from './layouts.js';
import { engravingKey, readEngravingMeta, readEngravingPage, readFont } from './notation-cache.js';
import { readNotationFile } from './notation-file.js';
import { inlineMusicFont } from './music-font.js';

/**
 * @typedef {{ kind: 'none' } | { kind: 'pending' } | { kind: 'failed' | 'no-part' | 'mismatch', message: string }
 *   | { kind: 'ready', key: string, meta: import('./notation-cache.js').EngravingMeta }} Lookup
 * @typedef {{ state: 'none' | 'engraving' | 'ready' | 'failed', file: string | null, parts: { done: number, total: number }, error: string | null }} NotationStatus
 */

const sentence = (error) => (error instanceof ImportError ? error.message : `the engraver failed: ${error?.message ?? error}`);

/** The <part id> a score part's id names, or "all"; undefined when the notation has no such part. */
const xmlIdOf = (state, partId) => (partId === 'all' ? 'all' : state.source?.parts.find((p) => p.id === partId)?.xmlId);

/** What the service knows of a loaded score's notation: its file, what was read, the engravings. */
function newState(generation, loaded, src) {
  return {
    generation,
    score: loaded.score,
    dir: loaded.dir,
    src,
    bytes: null,
    hash: '',
    source: null,
    error: null,
    mismatch: undefined,
    entries: new Map(),
    done: 0,
    total: 0,
    failures: [],
  };
}

/**
 * Read, inspect, then engrave every part in every layout in the background, reporting progress;
 * the parts a view shows the audience first. Stops reporting once another score is loaded.
 * @param {any} state newState()
 * @param {{ engraver: ReturnType<typeof createEngraver>, log: { info: (m: string) => void, warn: (m: string) => void },
 *   ensure: (state: any, xmlId: string, layout: string, urgent: boolean) => { promise?: Promise<any> }, isCurrent: () => boolean }} deps
 */
async function engraveInBackground(state, { engraver, log, ensure, isCurrent }) {
  const started = Date.now();
  try {
    const { bytes, hash } = await readNotationFile(state.dir, state.src);
    Object.assign(state, { bytes, hash });
    state.source = await engraver.run({ type: 'inspect', hash, bytes, name: state.src });
  } catch (error) {
    state.error = sentence(error);
    log.warn(`notation: ${state.src} cannot be engraved: ${state.error}`);
    return;
  }
  if (!isCurrent()) return;
  state.mismatch = notationMismatch(state.score, state.source, state.src);
  if (state.mismatch) log.warn(`notation: ${state.mismatch}`);
  const wanted = [...state.score.parts.map((p) => p.id).filter((id) => xmlIdOf(state, id)), 'all'];
  const jobs = Object.keys(LAYOUTS).flatMap((layout) => wanted.map((id) => ({ id, layout })));
  state.total = jobs.length;
  log.info(`notation: engraving ${state.src}: ${wanted.length} part(s) × ${Object.keys(LAYOUTS).length} layouts`);
  const track = async ({ id, layout }) => {
    const meta = await ensure(state, /** @type {string} */ (xmlIdOf(state, id)), layout, false).promise;
    if (!isCurrent() || !meta) return;
    state.done += 1;
    if (meta.error) state.failures.push(`${id} (${layout}): ${meta.error}`);
    log.info(`notation: ${state.done}/${state.total} ${id} ${layout}${meta.error ? `: ${meta.error}` : `, ${meta.pages} page(s)`}`);
  };
  // The pages a view shows the audience before the rest: every phone in the hall (and the edge)
  // waits on them (docs/reference/notation.md#the-score-on-the-audiences-phones).
  const audience = new Set(partsShownToAudience(state.score));
  const forAudience = (job) => job.layout === AUDIENCE_NOTATION_LAYOUT && audience.has(job.id);
  await Promise.all(jobs.filter(forAudience).map(track));
  if (isCurrent()) await Promise.all(jobs.filter((job) => !forAudience(job)).map(track));
  if (isCurrent())
    log.info(
      `notation: ${state.src} engraved (${state.done - state.failures.length} of ${state.total}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
}

/**
 * @param {{ cacheDir: string, log: { info: (m: string) => void, warn: (m: string) => void }, engraver?: ReturnType<typeof createEngraver> }} options
 */
export function createNotationService({ cacheDir, log, engraver = createEngraver() }) {
  let generation = 0;
  /** Engravings made by the worker (not found in the cache), since this service started. */
  let engraved = 0;
  /** The loaded score's notation (its file, what was read, the engravings); null when it names none. @type {any} */
  let current = null;
  /** Told (part id or "all", layout) when an engraving of the current score is ready. @type {Set<(part: string, layout: string) => void>} */
  const listeners = new Set();
  const engravedNow = (state, xmlId, layout) => {
    if (state.generation !== generation) return;
    const ids = xmlId === 'all' ? ['all'] : state.source.parts.filter((p) => p.xmlId === xmlId).map((p) => p.id);
    for (const id of ids) for (const listener of listeners) listener(id, layout);
  };

  const fail = (message) => ({ kind: /** @type {const} */ ('failed'), message });

  /** One engraving: from the disk cache, else the worker; the promise is shared by every asker. */
  const ensure = (state, xmlId, layout, urgent) => {
    const key = engravingKey(state.hash, xmlId, layout);
    let entry = state.entries.get(key);
    if (entry) {
      if (urgent && !entry.meta) engraver.promote((job) => job.key === key);
      return entry;
    }
    entry = { key, meta: undefined, promise: undefined };
    state.entries.set(key, entry);
    const job = { type: 'engrave', hash: state.hash, bytes: state.bytes, name: state.src, xmlId, layout, dir: cacheDir, key };
    entry.promise = (async () => {
      try {
        entry.meta = await readEngravingMeta(cacheDir, key);
        if (!entry.meta) {
          entry.meta = await engraver.run(/** @type {any} */ (job), { urgent });
          engraved += 1;
        }
      } catch (error) {
        if (/another score was loaded|closing/.test(String(error?.message))) state.entries.delete(key);
        else entry.meta = { format: 0, error: sentence(error) };
      }
      if (entry.meta && !entry.meta.error) engravedNow(state, xmlId, layout);
      return entry.meta;
    })();
    return entry;
  };

  const start = (state) => engraveInBackground(state, { engraver, log, ensure, isCurrent: () => state.generation === generation });

  /**
   * The engraving for a part and layout, started (urgently) when it is not there yet.
   * @param {string} partId a score part's id, or "all"
   * @param {string} layout a LAYOUTS name
   * @returns {Lookup}
   */
  const lookup = (partId, layout) => {
    const state = current;
    if (!state) return { kind: 'none' };
    if (state.error) return fail(state.error);
    if (partId !== 'all' && !state.score.parts.some((p) => p.id === partId))
      return { kind: 'no-part', message: `the score has no part ${JSON.stringify(partId)}` };
    if (!state.source) return { kind: 'pending' };
    const xmlId = xmlIdOf(state, partId);
    if (!xmlId) return { kind: 'no-part', message: `${state.src} has no part that the score calls ${JSON.stringify(partId)}` };
    const entry = ensure(state, xmlId, layout, true);
    if (!entry.meta) return { kind: 'pending' };
    if (entry.meta.error) return fail(entry.meta.error);
    return { kind: 'ready', key: entry.key, meta: entry.meta };
  };

  /** The bar map's JSON for a part and layout, or the lookup that says why there is none. */
  const barMap = (partId, layout) => {
    const found = lookup(partId, layout);
    if (found.kind !== 'ready') return found;
    const state = /** @type {any} */ (current);
    const built = buildBarMap(state.score, state.source, /** @type {any} */ (found.meta), state.src);
    if (built.ok === false) return { kind: /** @type {const} */ ('mismatch'), message: built.message };
    return { kind: /** @type {const} */ ('map'), json: JSON.stringify(built.map), meta: found.meta, key: found.key };
  };

  return {
    /**
     * A score was loaded: forget the last one's notation (its queued jobs too) and start on this one's.
     * @param {{ score: any, dir: string }} loaded
     */
    load(loaded) {
      generation += 1;
      engraver.clearQueue();
      const src = loaded.score.notation;
      current = src ? newState(generation, loaded, src) : null;
      if (current) current.started = start(current);
    },
    lookup,
    /**
     * The bar map's JSON for a part and layout (docs/reference/notation.md#the-bar-map).
     * @param {string} partId
     * @param {string} layout
     * @returns {Lookup | { kind: 'map', json: string }}
     */
    barMap: (partId, layout) => barMap(partId, layout),
    /**
     * One page's SVG, or the lookup that says why there is none.
     * @param {string} partId
     * @param {string} layout
     * @param {number} page
     * @param {{ gzipped?: boolean, withFont?: boolean }} [as] `gzipped`: as the worker gzipped it;
     *   `withFont`: with the music font it names put in (inlineMusicFont), not gzipped
     * @returns {Promise<Lookup | { kind: 'no-page', pages: number } | { kind: 'page', body: Buffer, etag: string }>}
     */
    async page(partId, layout, page, { gzipped = false, withFont = false } = {}) {
      const found = lookup(partId, layout);
      if (found.kind !== 'ready') return found;
      const pages = /** @type {number} */ (found.meta.pages);
      if (page > pages) return { kind: 'no-page', pages };
      const etag = /** @type {string[]} */ (found.meta.etags)[page - 1];
      if (withFont) {
        const body = await inlineMusicFont(await readEngravingPage(cacheDir, found.key, page), (hash) => readFont(cacheDir, hash));
        return { kind: 'page', body, etag: etag.replace(/"$/, '-f"') };
      }
      return { kind: 'page', body: await readEngravingPage(cacheDir, found.key, page, gzipped), etag };
    },
    /**
     * The music font a page names (docs/reference/notation.md#the-music-font), or undefined.
     * @param {string} hash
     */
    font: (hash) => readFont(cacheDir, hash),
    /**
     * The bar maps and pages of `parts` in `layout` that are engraved now, as score media
     * (core/score/audience-score.js paths): what the edge upload sends (edge/media-sync.js).
     * Parts not engraved yet are asked for (urgently) and left out; `onEngraved` says when they are.
     * @param {string[]} parts part ids or "all"
     * @param {string} layout
     * @returns {Promise<Array<{ src: string, bytes: Uint8Array }>>}
     */
    async mediaFiles(parts, layout) {
      const files = [];
      for (const part of parts) {
        const map = barMap(part, layout);
        if (map.kind !== 'map') continue;
        files.push({ src: notationMapPath(part, layout), bytes: Buffer.from(map.json) });
        for (let n = 1; n <= /** @type {number} */ (map.meta.pages); n += 1)
          files.push({
            src: notationPagePath(part, n, layout),
            // The edge has no font route: a page that names the font carries it.
            bytes: await inlineMusicFont(await readEngravingPage(cacheDir, map.key, n), (hash) => readFont(cacheDir, hash)),
          });
      }
      return files;
    },
    /**
     * Be told when an engraving of the current score is ready (part id or "all", layout).
     * @param {(part: string, layout: string) => void} listener
     * @returns {() => void} stop listening
     */
    onEngraved(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Be told the engraving process's id when one starts, null when it ends (engraver.js onProcess). */
    onEngraverProcess: engraver.onProcess,
    /** @returns {NotationStatus} for /api/status and the console */
    status() {
      const state = current;
      if (!state) return { state: 'none', file: null, parts: { done: 0, total: 0 }, error: null };
      const error = state.error ?? state.mismatch ?? state.failures[0] ?? null;
      const engraving = !state.error && (!state.source || state.done < state.total);
      const allFailed = state.total > 0 && state.failures.length === state.total;
      return {
        state: state.error || allFailed ? 'failed' : engraving ? 'engraving' : 'ready',
        file: state.src,
        parts: { done: state.done, total: state.total },
        error,
      };
    },
    /** How many engravings Verovio made (the rest came from the disk cache). */
    stats: () => ({ engraved }),
    /** Resolves when the current score's background engraving is finished (tests, bench). */
    settled: () => current?.started ?? Promise.resolve(),
    close: () => engraver.close(),
  };
}
