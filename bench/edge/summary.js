// `npm run bench:edge` report: per number of viewers and per stream (full, lean), the median over
// runs of the edge's and the venue's publish → receive latency, side by side (bench:fanout style),
// what each viewer receives (messages per minute) and where the edge's time goes (workerd CPU per
// delivered message and per viewer).

import { median, round } from '../lib/stats.js';
import { recordTable } from '../lib/results-file.js';

/**
 * @param {Array<{ viewers: number, edge: Record<string, any>, venue: any | null }>} runs one entry per (viewers, run); edge: one result per stream
 */
export function summarize(runs) {
  const groups = new Map();
  for (const r of runs) {
    for (const [stream, edge] of Object.entries(r.edge ?? {})) {
      const key = `${r.viewers}|${stream}`;
      if (!groups.has(key)) groups.set(key, { viewers: r.viewers, stream, list: [] });
      groups.get(key).list.push({ edge, venue: r.venue });
    }
  }
  return [...groups.values()].map(({ viewers, stream, list }) => {
    const edges = list.map((r) => r.edge).filter((e) => e?.ok !== false);
    const venues = list.map((r) => r.venue).filter((v) => v && v.ok);
    const med = (items, f) => round(median(items.map(f)), 2);
    return {
      viewers,
      stream,
      runs: list.length,
      edge: {
        connected: med(edges, (e) => e.connected),
        shards: med(edges, (e) => e.shards),
        p50: med(edges, (e) => e.latencyMs.p50),
        p99: med(edges, (e) => e.latencyMs.p99),
        max: med(edges, (e) => e.latencyMs.max),
        lost: edges.reduce((s, e) => s + e.lost, 0),
        dropped: edges.reduce((s, e) => s + e.unexpectedCloses, 0),
        messagesPerViewerPerMin: med(edges, (e) => e.messagesPerViewerPerMin),
        workerdUsPerMessage: med(edges, (e) => e.cpu?.workerdUsPerMessage),
        workerdUsPerViewerSecond: med(edges, (e) => e.cpu?.workerdUsPerViewerSecond),
        workerdPct: med(edges, (e) => e.cpu?.workerdPct),
        clientUsPerMessage: med(edges, (e) => e.cpu?.clientUsPerMessage),
        otherPct: med(edges, (e) => e.cpu?.otherProcessesPct),
        p99s: edges.map((e) => e.latencyMs.p99),
      },
      venue: venues.length
        ? {
            p50: med(venues, (v) => v.p50),
            p99: med(venues, (v) => v.p99),
            max: med(venues, (v) => v.max),
            lost: venues.reduce((s, v) => s + v.lost, 0),
            p99s: venues.map((v) => v.p99),
            otherPct: med(venues, (v) => v.otherCpuPct),
          }
        : null,
    };
  });
}

/**
 * The medians table, as printed; kept in `tables` for the results file (bench/lib/results-file.js).
 * @param {ReturnType<typeof summarize>} summary
 * @param {import('../lib/results-file.js').PrintedTable[]} tables
 * @param {string} title
 * @returns {string}
 */
export function formatSummary(summary, tables, title) {
  const rows = summary.map((s) => ({
    viewers: s.viewers,
    stream: s.stream,
    runs: s.runs,
    shards: s.edge.shards,
    edgeP50: s.edge.p50,
    edgeP99: s.edge.p99,
    edgeMax: s.edge.max,
    edgeLost: s.edge.lost,
    dropped: s.edge.dropped,
    perMin: s.edge.messagesPerViewerPerMin,
    workerdPct: s.edge.workerdPct,
    workerdUs: s.edge.workerdUsPerMessage,
    perViewer: s.edge.workerdUsPerViewerSecond,
    clientUs: s.edge.clientUsPerMessage,
    venueP50: s.venue?.p50 ?? null,
    venueP99: s.venue?.p99 ?? null,
    venueMax: s.venue?.max ?? null,
    venueLost: s.venue?.lost ?? null,
    other: s.edge.otherPct,
  }));
  return recordTable(
    tables,
    title,
    [
      { key: 'viewers', label: 'viewers' },
      { key: 'stream', label: 'stream' },
      { key: 'runs', label: 'runs' },
      { key: 'shards', label: 'shards' },
      { key: 'edgeP50', label: 'edge p50 ms' },
      { key: 'edgeP99', label: 'edge p99 ms' },
      { key: 'edgeMax', label: 'edge max ms' },
      { key: 'edgeLost', label: 'edge lost' },
      { key: 'dropped', label: 'dropped' },
      { key: 'perMin', label: 'msgs/viewer/min' },
      { key: 'workerdPct', label: 'workerd %cpu' },
      { key: 'workerdUs', label: 'workerd µs/msg' },
      { key: 'perViewer', label: 'workerd µs/viewer-s' },
      { key: 'clientUs', label: 'client µs/msg' },
      { key: 'venueP50', label: 'venue p50 ms' },
      { key: 'venueP99', label: 'venue p99 ms' },
      { key: 'venueMax', label: 'venue max ms' },
      { key: 'venueLost', label: 'venue lost' },
      { key: 'other', label: 'others %cpu' },
    ],
    rows,
  );
}
