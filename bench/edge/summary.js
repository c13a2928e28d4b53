// `npm run bench:edge` report: per number of viewers, the median over runs of the edge's and the
// venue's publish → receive latency, side by side (bench:fanout style), and where the edge's
// time goes (workerd CPU per delivered message).

import { median, round } from '../lib/stats.js';
import { formatTable } from '../lib/table.js';

/**
 * @param {Array<{ viewers: number, edge: any, venue: any | null }>} runs one entry per (viewers, run)
 */
export function summarize(runs) {
  const byViewers = new Map();
  for (const r of runs) {
    if (!byViewers.has(r.viewers)) byViewers.set(r.viewers, []);
    byViewers.get(r.viewers).push(r);
  }
  return [...byViewers].map(([viewers, list]) => {
    const edges = list.map((r) => r.edge).filter((e) => e?.ok !== false);
    const venues = list.map((r) => r.venue).filter((v) => v && v.ok);
    const med = (items, f) => round(median(items.map(f)), 1);
    return {
      viewers,
      runs: list.length,
      edge: {
        connected: med(edges, (e) => e.connected),
        shards: med(edges, (e) => e.shards),
        p50: med(edges, (e) => e.latencyMs.p50),
        p99: med(edges, (e) => e.latencyMs.p99),
        max: med(edges, (e) => e.latencyMs.max),
        lost: edges.reduce((s, e) => s + e.lost, 0),
        dropped: edges.reduce((s, e) => s + e.unexpectedCloses, 0),
        workerdUsPerMessage: med(edges, (e) => e.cpu?.workerdUsPerMessage),
        workerdPct: med(edges, (e) => e.cpu?.workerdPct),
        clientUsPerMessage: med(edges, (e) => e.cpu?.clientUsPerMessage),
        otherPct: med(edges, (e) => e.cpu?.otherProcessesPct),
        p99s: edges.map((e) => e.latencyMs.p99),
      },
      venue: venues.length
        ? { p50: med(venues, (v) => v.p50), p99: med(venues, (v) => v.p99), max: med(venues, (v) => v.max), lost: venues.reduce((s, v) => s + v.lost, 0), p99s: venues.map((v) => v.p99), otherPct: med(venues, (v) => v.otherCpuPct) }
        : null,
    };
  });
}

/** @param {ReturnType<typeof summarize>} summary */
export function formatSummary(summary) {
  const rows = summary.map((s) => ({
    viewers: s.viewers,
    runs: s.runs,
    shards: s.edge.shards,
    edgeP50: s.edge.p50,
    edgeP99: s.edge.p99,
    edgeMax: s.edge.max,
    edgeLost: s.edge.lost,
    dropped: s.edge.dropped,
    workerdUs: s.edge.workerdUsPerMessage,
    clientUs: s.edge.clientUsPerMessage,
    venueP50: s.venue?.p50 ?? null,
    venueP99: s.venue?.p99 ?? null,
    venueMax: s.venue?.max ?? null,
    venueLost: s.venue?.lost ?? null,
    other: s.edge.otherPct,
  }));
  return formatTable([
    { key: 'viewers', label: 'viewers' },
    { key: 'runs', label: 'runs' },
    { key: 'shards', label: 'shards' },
    { key: 'edgeP50', label: 'edge p50 ms' },
    { key: 'edgeP99', label: 'edge p99 ms' },
    { key: 'edgeMax', label: 'edge max ms' },
    { key: 'edgeLost', label: 'edge lost' },
    { key: 'dropped', label: 'dropped' },
    { key: 'workerdUs', label: 'workerd µs/msg' },
    { key: 'clientUs', label: 'client µs/msg' },
    { key: 'venueP50', label: 'venue p50 ms' },
    { key: 'venueP99', label: 'venue p99 ms' },
    { key: 'venueMax', label: 'venue max ms' },
    { key: 'venueLost', label: 'venue lost' },
    { key: 'other', label: 'others %cpu' },
  ], rows);
}
