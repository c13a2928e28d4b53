// The part pages that are open now (docs/how-to/part-pages.md#part-pages): each page reports itself every few
// seconds (POST /part/<key>/report: which part, its clock-sync round trip and bound, its
// transport), and the console lists them so the composer sees the band is ready before Play.
// Bounded: at most MAX_PAGES entries, forgotten after FORGET_MS. One address holds at most
// MAX_PAGES_PER_ADDRESS, its own oldest dropped first, so a key holder reporting made-up pages
// cannot push the band's tablets out of the list (issue 40 item 14); when the list is full, the
// address holding the most pages gives up its oldest.

export const MAX_PAGES = 64;
/** A tablet, a phone and a few reloads: more from one address is someone making pages up. */
export const MAX_PAGES_PER_ADDRESS = 8;
/** A page silent this long is shown as gone; twice as long and it is forgotten. */
export const GONE_MS = 15_000;
export const FORGET_MS = 120_000;

/**
 * @typedef {object} PartReport
 * @property {string} id random per page load
 * @property {string} part the part picked ('*' = all)
 * @property {number | null} rtt clock-sync round trip (ms)
 * @property {number | null} bound clock-sync uncertainty (± ms)
 * @property {'ws' | 'sse' | 'poll' | null} transport
 * @property {boolean} click whether the page's click is on
 */

const ID = /^[A-Za-z0-9_-]{8,32}$/;
const PART = /^(\*|[A-Za-z0-9][A-Za-z0-9_-]{0,63})$/;
const TRANSPORTS = new Set(['ws', 'sse', 'poll']);
const KEYS = new Set(['id', 'part', 'rtt', 'bound', 'transport', 'click']);
const ms = (v) => v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 600_000);

/**
 * Check a report body from the network (hostile input: exact keys, types and ranges).
 * @param {unknown} body
 * @returns {{ ok: true, report: PartReport } | { ok: false, reason: string }}
 */
export function parsePartReport(body) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, reason: 'expected a JSON object' };
  const b = /** @type {Record<string, unknown>} */ (body);
  const unknown = Object.keys(b).find((k) => !KEYS.has(k));
  if (unknown !== undefined) return { ok: false, reason: `unknown field ${JSON.stringify(unknown.slice(0, 40))}` };
  if (typeof b.id !== 'string' || !ID.test(b.id)) return { ok: false, reason: 'id must be 8–32 of A-Z a-z 0-9 _ -' };
  if (typeof b.part !== 'string' || !PART.test(b.part)) return { ok: false, reason: 'part must be a part id or "*"' };
  if (!ms(b.rtt ?? null) || !ms(b.bound ?? null))
    return { ok: false, reason: 'rtt and bound must be null or milliseconds from 0 to 600000' };
  if (b.transport !== undefined && b.transport !== null && !TRANSPORTS.has(/** @type {string} */ (b.transport)))
    return { ok: false, reason: 'transport must be ws, sse, poll or null' };
  if (b.click !== undefined && typeof b.click !== 'boolean') return { ok: false, reason: 'click must be true or false' };
  return {
    ok: true,
    report: {
      id: b.id,
      part: b.part,
      rtt: /** @type {number | null} */ (b.rtt ?? null),
      bound: /** @type {number | null} */ (b.bound ?? null),
      transport: /** @type {any} */ (b.transport ?? null),
      click: b.click === true,
    },
  };
}

/**
 * The list of part pages open now, fed by their reports, read by the console (GET /api/parts).
 * @param {{ now?: () => number }} [options]
 */
export function createPartPages({ now = Date.now } = {}) {
  /** @type {Map<string, PartReport & { address: string, firstSeen: number, lastSeen: number }>} */
  const pages = new Map();

  const forgetOld = (t) => {
    for (const [id, page] of pages) if (t - page.lastSeen > FORGET_MS) pages.delete(id);
  };

  /** The ids of the pages of `address`, oldest report first. */
  const idsOf = (address) => [...pages].filter(([, p]) => p.address === address).map(([id]) => id);

  /** Room for one more page from `address`: its own oldest goes, else the biggest address's oldest. */
  const makeRoom = (address) => {
    const own = idsOf(address);
    if (own.length >= MAX_PAGES_PER_ADDRESS) pages.delete(own[0]);
    else if (pages.size >= MAX_PAGES) {
      /** @type {Map<string, string[]>} */
      const byAddress = new Map();
      for (const [id, p] of pages) byAddress.set(p.address, [...(byAddress.get(p.address) ?? []), id]);
      const biggest = [...byAddress.values()].reduce((a, b) => (b.length > a.length ? b : a));
      pages.delete(biggest[0]);
    }
  };

  return {
    /**
     * A page reported itself.
     * @param {PartReport} report
     * @param {string} address the tablet's address
     */
    report(report, address) {
      const t = now();
      forgetOld(t);
      const known = pages.get(report.id);
      pages.delete(report.id); // re-inserted last: the Map stays ordered by last report
      if (!known) makeRoom(address);
      pages.set(report.id, { ...report, address, firstSeen: known?.firstSeen ?? t, lastSeen: t });
    },
    /**
     * The pages for the console, newest part first within each part, with how long ago each reported.
     * @returns {Array<PartReport & { address: string, lastSeen: number, ago: number, gone: boolean }>}
     */
    list() {
      const t = now();
      forgetOld(t);
      return [...pages.values()]
        .map((p) => ({ ...p, ago: t - p.lastSeen, gone: t - p.lastSeen > GONE_MS }))
        .sort((a, b) => a.part.localeCompare(b.part) || a.ago - b.ago);
    },
  };
}
