// Malformed viewer requests the Worker refuses (today: `POST /vote`, see vote-route.js) are
// counted like the shards' refused frames (docs/explanation/edge-design.md#votes-at-the-edge): the stateless Worker
// keeps a count per isolate and show and reports it to that show's root at most once a second,
// so a flood of bad requests costs the root one RPC per isolate per second, never one per
// request (a bad request must not become a Durable Object call: that would be an amplification
// vector). The root adds the reports up in `show.viewerRequestsRefused` (/healthz?deep=1).

import { allowedShows } from './show-allowlist.js';
import { rootStub } from '../env/stubs.js';

/** The kinds of refused request, as they appear in `show.viewerRequestsRefused`. */
export const REQUEST_REFUSAL_KINDS = /** @type {const} */ (['vote_method', 'vote_type', 'vote_size', 'vote_body']);
/** @typedef {typeof REQUEST_REFUSAL_KINDS[number]} RequestRefusalKind */

/** At most one report per isolate and show in this time. */
export const REPORT_EVERY_MS = 1000;

/**
 * One entry per show this isolate refused requests for: at most the default show plus the
 * shows listed in SHOWS (see isCountedAt), so the map cannot grow with made-up names.
 * @type {Map<string | null, { counts: Partial<Record<RequestRefusalKind, number>>, scheduled: boolean, lastReportAt: number }>}
 */
const perShow = new Map();

/**
 * Whether a refusal for `show` may be reported to its root. The default show's root is the
 * deployment's own; a named show's root only when SHOWS lists it (the Worker answered 404 for
 * any other name before this). With SHOWS="*" any well-formed name reaches this far, and
 * reporting would create a root for a name nobody uses (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge)
 * so those refusals are answered but not counted.
 * @param {Env} env
 * @param {string | null} show
 */
function isCountedAt(env, show) {
  return show === null || allowedShows(env) !== null;
}

/**
 * Count one refused request for `show`; the report to its root is sent later, from
 * `ctx.waitUntil`, together with every refusal that arrives until then.
 * @param {Env} env
 * @param {Pick<ExecutionContext, 'waitUntil'>} ctx the refused request's context
 * @param {string | null} show a checked show name (show-path.js), null for the default show
 * @param {RequestRefusalKind} kind
 */
export function countRequestRefusal(env, ctx, show, kind) {
  if (!isCountedAt(env, show)) return;
  let entry = perShow.get(show);
  if (!entry) {
    entry = { counts: {}, scheduled: false, lastReportAt: -Infinity };
    perShow.set(show, entry);
  }
  entry.counts[kind] = (entry.counts[kind] ?? 0) + 1;
  if (entry.scheduled) return;
  entry.scheduled = true;
  const delay = Math.max(0, entry.lastReportAt + REPORT_EVERY_MS - Date.now());
  // The timer and the RPC run in this request's context (a stub may not be used from another
  // request's), kept alive after the response by waitUntil.
  ctx.waitUntil(sleep(delay).then(() => report(env, show, entry)));
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reports that fail are tried again this many times, a second apart (within waitUntil's time). */
const RETRIES = 3;

/**
 * @param {Env} env
 * @param {string | null} show
 * @param {{ counts: Partial<Record<RequestRefusalKind, number>>, scheduled: boolean, lastReportAt: number }} entry
 * @param {number} [retries]
 */
async function report(env, show, entry, retries = RETRIES) {
  const { counts } = entry;
  entry.counts = {};
  entry.scheduled = false;
  entry.lastReportAt = Date.now();
  try {
    await rootStub(env, show).countRequestRefusals(counts);
  } catch {
    // The root is unreachable right now: the counts wait for the retry or the next report.
    for (const [kind, n] of Object.entries(counts)) entry.counts[kind] = (entry.counts[kind] ?? 0) + n;
    if (retries === 0 || entry.scheduled) return;
    entry.scheduled = true;
    await sleep(REPORT_EVERY_MS);
    await report(env, show, entry, retries - 1);
  }
}

/**
 * The root's side: the sum of every isolate's reports. Reports come from the Worker only (an RPC),
 * but are still checked: unknown kinds and anything but a positive count are ignored.
 * @returns {{ add: (counts: unknown) => void, counts: () => Record<RequestRefusalKind, number>, reports: () => number }}
 */
export function createRequestRefusalTally() {
  const totals = /** @type {Record<RequestRefusalKind, number>} */ (Object.fromEntries(REQUEST_REFUSAL_KINDS.map((kind) => [kind, 0])));
  let reports = 0;
  return {
    add(counts) {
      if (counts === null || typeof counts !== 'object') return;
      reports += 1;
      for (const kind of REQUEST_REFUSAL_KINDS) {
        const n = counts[kind];
        if (Number.isSafeInteger(n) && n > 0) totals[kind] += n;
      }
    },
    counts: () => ({ ...totals }),
    reports: () => reports,
  };
}
