// Read a result written by run.js (or a plain `artillery run -o` file) into what the report
// shows: per run, the aggregate figures and the 10-second periods as time series.

import { recomputeChecks } from './ensure-checks.js';

/**
 * @typedef {{ count: number, min: number, max: number, mean: number, p50: number, p95: number, p99: number }} Summary
 * @typedef {{ t: number, summaries: Record<string, Summary>, counters: Record<string, number> }} Period
 * @typedef {object} Run
 * @property {string} name
 * @property {string} kind pageload | viewers | ramp | unknown
 * @property {string | null} target
 * @property {number | null} users
 * @property {Array<{ ok: boolean, check: string }>} checks
 * @property {boolean} checksRecomputed true when the file did not keep them (a plain `artillery run -o` file)
 * @property {number | null} exitCode
 * @property {Record<string, number>} counters
 * @property {Record<string, Summary>} summaries
 * @property {Period[]} periods
 * @property {number} startedAt ms of the first period
 */

/**
 * @param {any} json parsed result file
 * @param {string} [fallbackName]
 * @returns {{ meta: any, runs: Run[] }}
 */
export function readResult(json, fallbackName = 'artillery run') {
  if (!json || typeof json !== 'object') throw resultError('the file is not a JSON object');
  const meta = json.tutti ?? null;
  const partsMeta = new Map((meta?.parts ?? []).map((p) => [p.name, p]));
  let sources;
  if (json.parts && typeof json.parts === 'object') {
    sources = Object.entries(json.parts).map(([name, data]) => ({ name, data, part: partsMeta.get(name) }));
  } else if (json.aggregate) {
    const name = meta?.scenario ?? fallbackName;
    sources = [{ name, data: json, part: meta?.parts?.[0] ?? null }];
  } else {
    throw resultError('no "aggregate" (Artillery) or "parts" (zscore-profile) in it');
  }
  const runs = sources.map(({ name, data, part }) => toRun(name, data, part, meta));
  return { meta, runs };
}

/** Artillery's percentiles come from a sketch (~1 % error) and can exceed the exact max. */
function tidy(summaries = {}) {
  const out = {};
  for (const [name, s] of Object.entries(summaries)) {
    out[name] = { ...s };
    for (const k of ['p50', 'median', 'p75', 'p90', 'p95', 'p99', 'p999']) {
      if (Number.isFinite(s[k]) && Number.isFinite(s.max)) out[name][k] = Math.min(s[k], s.max);
    }
  }
  return out;
}

function toRun(name, data, part, meta) {
  const aggregate = data?.aggregate ?? {};
  // run.js keeps the verdicts Artillery printed; a plain file has none, so recompute them.
  const recomputed = part?.checks ? null : recomputeChecks(aggregate);
  const periods = (data?.intermediate ?? [])
    .map((p) => ({ t: Number(p.period ?? p.firstMetricAt), summaries: tidy(p.summaries), counters: p.counters ?? {} }))
    .filter((p) => Number.isFinite(p.t))
    .sort((a, b) => a.t - b.t);
  return {
    name,
    kind: part?.kind ?? meta?.kind ?? guessKind(aggregate),
    target: part?.target ?? meta?.target ?? null,
    users: part?.users ?? meta?.users ?? aggregate.counters?.['vusers.created'] ?? null,
    checks: part?.checks ?? recomputed ?? [],
    checksRecomputed: Boolean(recomputed),
    exitCode: part?.exitCode ?? null,
    counters: aggregate.counters ?? {},
    summaries: tidy(aggregate.summaries),
    periods,
    startedAt: periods[0]?.t ?? Number(aggregate.firstMetricAt ?? 0),
  };
}

function guessKind(aggregate) {
  const s = aggregate.summaries ?? {};
  if (s['tutti.page_load_ms'] && !s['tutti.push_latency_ms']) return 'pageload';
  if (s['tutti.push_latency_ms']) return 'viewers';
  return 'unknown';
}

function resultError(why) {
  return Object.assign(new Error(`not a load-test result: ${why}`), { code: 'BAD_RESULT' });
}

/** Sum of the counters whose names start with `prefix`. */
export function sumCounters(counters, prefix) {
  let total = 0;
  for (const [k, v] of Object.entries(counters)) if (k.startsWith(prefix)) total += Number(v) || 0;
  return total;
}

/** Errors of a run: Artillery's errors.* counters plus non-2xx/3xx HTTP codes. */
export function errorsOf(counters) {
  const rows = [];
  for (const [k, v] of Object.entries(counters)) {
    if (k.startsWith('errors.')) rows.push({ what: k.slice(7), count: v });
    const code = /^http\.codes\.(\d{3})$/.exec(k);
    if (code && Number(code[1]) >= 400) rows.push({ what: `HTTP ${code[1]}`, count: v });
  }
  return rows.sort((a, b) => b.count - a.count);
}
