// The offline report: one self-contained HTML file (inline CSS and SVG; no scripts, fonts or
// CDN), readable on a laptop screen and on paper.

import { chart } from '#core/report/svg-chart.js';
import { errorsOf, sumCounters } from './read-result.js';
import { comparisonRows, ms, bytes, transportOf, failedOf, ZSCORE_SOURCE, ZSCORE } from './zscore-figures.js';

const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const int = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en') : '—');

const COLORS = {
  p50: '#2563eb',
  p95: '#d97706',
  p99: '#dc2626',
  max: '#6b7280',
  messages: '#0d9488',
  resyncs: '#7c3aed',
  errors: '#dc2626',
  users: '#94a3b8',
};

const RUN_TITLES = {
  pageload: (run) => `${int(run.users)} phones load the page`,
  viewers: (run) => `${int(run.users)} ${transportOf(run)} viewers`,
  ramp: (run) => `${int(run.users)} clients: page, then 23 polls at 500 ms`,
};

/**
 * @param {{ meta: any, runs: import('./read-result.js').Run[] }} result
 * @param {{ source?: string }} [options]
 * @returns {string} HTML
 */
export function renderReport({ meta, runs }, { source = '' } = {}) {
  const title = meta?.scenario ?? runs.map((r) => r.name).join(', ');
  const checks = runs.flatMap((r) => r.checks.map((c) => ({ ...c, run: r.name })));
  const failedChecks = checks.filter((c) => !c.ok);
  const exit = meta?.exitCode;
  const status =
    exit === undefined || exit === null
      ? checks.length
        ? failedChecks.length
          ? 'failed'
          : 'passed'
        : 'unknown'
      : exit === 0
        ? 'passed'
        : 'failed';
  const rows = comparisonRows(runs, meta);
  const when = meta?.startedAt
    ? new Date(meta.startedAt)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tutti load test · ${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<header class="page-head">
  <div>
    <p class="eyebrow">Tutti load test</p>
    <h1>${esc(title)}</h1>
    <p class="sub">${[when, meta?.target ? `target ${esc(meta.target)}` : '', meta?.users ? `${int(meta.users)} users` : '', machineLine(meta)].filter(Boolean).join(' · ')}</p>
  </div>
  <div class="verdict ${status}">${status === 'passed' ? 'All checks passed' : status === 'failed' ? `Failed${failedChecks.length ? `: ${failedChecks.length} check${failedChecks.length > 1 ? 's' : ''}` : exit ? ` (exit ${exit})` : ''}` : 'No checks recorded'}</div>
</header>
${meta?.command ? `<p class="command"><span>Command</span><code>${esc(meta.command)}</code></p>` : ''}
${rows.length ? comparison(rows, meta) : ''}
${runs.map((run) => runSection(run, runs.length > 1, meta)).join('\n')}
<section class="notes">
  <h2>How to read this</h2>
  <ul>
    <li><b>Push latency</b> is the time from the server creating an envelope (its <code>t</code>) to a virtual viewer receiving it. The snapshot a viewer gets when it joins or resyncs is a reply, not a push, and is not counted. Polled envelopes include the wait for the next poll (up to 500 ms).</li>
    <li><b>Resyncs</b>: a viewer saw a gap in <code>seq</code> or a new epoch and asked for a snapshot (WS <code>{"type":"resync"}</code>, SSE reconnect, poll without <code>since</code>). Zero on a healthy run.</li>
    <li><b>Failed users</b>: viewers dropped or never given a snapshot, page loads or polls with a non-200 or a network error. <code>maxErrorRate</code> is their share.</li>
    <li>Charts use Artillery's 10-second periods (x: seconds since the first period began); hover a point for its value.</li>
    <li>On one machine the load generator and the server share the CPU, and loopback has no radio: these numbers are the server's own cost, not a venue's Wi-Fi. ZScore's Wi-Fi figures were limited by the access point (≈120 Mbit/s per stream) and the 1.9 MB first load.</li>
  </ul>
  ${source ? `<p class="muted">Result file: <code>${esc(source)}</code></p>` : ''}
</section>
</body>
</html>
`;
}

function machineLine(meta) {
  const m = meta?.machine;
  if (!m) return '';
  return `${m.cpus} cores (${esc(m.cpuModel)}), ${m.memoryGiB} GiB, Node ${esc(m.node)}`;
}

function comparison(rows, meta) {
  const mark = {
    better: ['lower', 'Tutti lower'],
    worse: ['higher', 'Tutti higher'],
    similar: ['similar', 'similar'],
    info: ['info', 'no ZScore figure'],
    missing: ['missing', 'not measured'],
    fewer: ['info', 'far fewer users: no verdict'],
  };
  return `<section class="compare">
  <h2>Next to ZScore's published figures</h2>
  <p class="muted">${esc(ZSCORE_SOURCE)}. Criteria there: page ≤ ${ZSCORE.criteria.pageMs / 1000} s, push ≤ ${ZSCORE.criteria.pushMs / 1000} s.${meta?.started?.server ? ' This run: server started by the load-test command on the same machine.' : ''}</p>
  <table class="comparison">
    <thead><tr><th>What</th><th>ZScore</th><th>Tutti (this run)</th><th></th></tr></thead>
    <tbody>
${rows.map((r) => `      <tr><th scope="row">${esc(r.topic)}</th><td>${esc(r.zscore)}<small>${esc(r.zscoreSetup)}</small></td><td>${esc(r.tutti)}<small>${esc(r.tuttiSetup)}</small></td><td><span class="tag ${mark[r.verdict][0]}">${mark[r.verdict][1]}</span></td></tr>`).join('\n')}
    </tbody>
  </table>
</section>`;
}

function series(run, metric, stats = ['p50', 'p95', 'p99', 'max']) {
  return stats.map((stat) => ({
    label: stat,
    color: COLORS[stat],
    dash: stat === 'max',
    points: run.periods
      .filter((p) => p.summaries[metric])
      .map((p) => [Math.round((p.t - run.startedAt) / 1000), p.summaries[metric][stat]]),
  }));
}

function counts(run, name, color, label, prefix = false) {
  return {
    label,
    color,
    kind: /** @type {const} */ ('column'),
    points: run.periods.map((p) => [
      Math.round((p.t - run.startedAt) / 1000),
      prefix ? sumCounters(p.counters, name) : Number(p.counters[name] ?? 0),
    ]),
  };
}

function tile(label, value, note = '', tone = '') {
  return `<div class="tile ${tone}"><div class="tile-label">${esc(label)}</div><div class="tile-value">${value}</div>${note ? `<div class="tile-note">${esc(note)}</div>` : ''}</div>`;
}

function runSection(run, many, meta) {
  const c = run.counters;
  const s = run.summaries;
  const push = s['tutti.push_latency_ms'];
  const page = s['tutti.page_load_ms'];
  const created = Number(c['vusers.created'] ?? 0);
  const failed = failedOf(run);
  const resyncs = Number(c['tutti.resyncs'] ?? 0);
  const errors = errorsOf(c);
  const tiles = [];
  tiles.push(tile(run.kind === 'pageload' ? 'Phones' : 'Users', int(created), `${int(Number(c['vusers.completed'] ?? 0))} completed`));
  if (push) {
    tiles.push(tile('Push latency p50', ms(push.p50), `${int(push.count)} pushes`));
    tiles.push(tile('p99', ms(push.p99), `p95 ${ms(push.p95)}`, push.p99 > ZSCORE.criteria.pushMs ? 'bad' : ''));
    tiles.push(tile('max', ms(push.max), `mean ${ms(push.mean)}`));
  }
  if (c['tutti.messages'] !== undefined)
    tiles.push(tile('Messages', int(c['tutti.messages']), `${bytes(c['tutti.received_bytes'])} received`));
  if (push || c['tutti.messages'] !== undefined)
    tiles.push(tile('Resyncs', int(resyncs), resyncs ? 'gaps / new epochs' : 'none', resyncs ? 'warn' : 'good'));
  if (page) {
    tiles.push(tile('Page load p50', ms(page.p50), `${int(Number(c['tutti.page_loads'] ?? 0))} complete`));
    tiles.push(tile('p99', ms(page.p99), `max ${ms(page.max)}`, page.p99 > ZSCORE.criteria.pageMs ? 'bad' : ''));
    if (s['tutti.page_bytes']) tiles.push(tile('Per page', bytes(s['tutti.page_bytes'].mean), 'on the wire'));
  }
  const http = s['plugins.metrics-by-endpoint.response_time.poll'];
  if (http)
    tiles.push(
      tile('Poll response p99', ms(http.p99), `${int(Number(c['plugins.metrics-by-endpoint.poll.codes.200'] ?? 0))} polls answered 200`),
    );
  tiles.push(
    tile(
      'Failed users',
      int(failed),
      created ? `${((failed / created) * 100).toFixed(failed && failed / created < 0.01 ? 2 : 0)} %` : '',
      failed ? 'bad' : 'good',
    ),
  );

  const charts = [];
  if (push) charts.push(chart({ title: 'Push latency over time', unit: 'ms', series: series(run, 'tutti.push_latency_ms') }));
  if (c['tutti.messages'] !== undefined)
    charts.push(chart({ title: 'Messages received per period', series: [counts(run, 'tutti.messages', COLORS.messages, 'messages')] }));
  if (page) charts.push(chart({ title: 'Page load time over time', unit: 'ms', series: series(run, 'tutti.page_load_ms') }));
  if (page)
    charts.push(
      chart({ title: 'Complete page loads per period', series: [counts(run, 'tutti.page_loads', COLORS.messages, 'page loads')] }),
    );
  const troubles = [
    ...(c['tutti.messages'] !== undefined ? [counts(run, 'tutti.resyncs', COLORS.resyncs, 'resyncs')] : []),
    counts(run, 'vusers.failed', COLORS.errors, 'failed users'),
  ];
  if (troubles.some((t) => t.points.some(([, y]) => y > 0)))
    charts.push(chart({ title: 'Resyncs and failed users per period', series: troubles }));
  if (http)
    charts.push(
      chart({ title: 'Poll response time over time', unit: 'ms', series: series(run, 'plugins.metrics-by-endpoint.response_time.poll') }),
    );

  const heading = `${(RUN_TITLES[run.kind] ?? (() => run.name))(run)}${meta?.via === 'edge' ? ' through the edge worker' : ''}`;
  return `<section class="run">
  <h2>${many ? `<span class="part">${esc(run.name)}</span> ` : ''}${esc(heading)}</h2>
  ${run.target ? `<p class="muted">Target <code>${esc(run.target)}</code></p>` : ''}
  ${run.checks.length ? `<ul class="checks">${run.checks.map((ch) => `<li class="${ch.ok ? 'ok' : 'fail'}"><span>${ch.ok ? 'ok' : 'fail'}</span><code>${esc(ch.check)}</code></li>`).join('')}</ul>` : ''}
  ${run.checksRecomputed ? `<p class="muted">Checks recomputed from the aggregate with the scenario's <code>ensure</code> block: a plain <code>artillery run -o</code> file does not keep the verdicts Artillery printed.</p>` : ''}
  ${!push && Number(c['tutti.messages'] ?? 0) > 0 && run.kind !== 'pageload' ? `<p class="warning">No pushes were received, only the snapshots that answer a join: the show was not moving (stopped, paused or finished). Latency could not be measured.</p>` : ''}
  <div class="tiles">${tiles.join('')}</div>
  <div class="charts">${charts.join('\n')}</div>
  ${troubles.some((t) => t.points.some(([, y]) => y > 0)) ? '' : `<p class="muted">No resyncs and no failed users in any period.</p>`}
  ${errors.length ? `<h3>Errors</h3><table class="plain"><thead><tr><th>What</th><th class="num">Count</th></tr></thead><tbody>${errors.map((e) => `<tr><td>${esc(e.what)}</td><td class="num">${int(e.count)}</td></tr>`).join('')}</tbody></table>` : ''}
  <details><summary>All metrics (aggregate)</summary>${allMetrics(run)}</details>
</section>`;
}

function allMetrics(run) {
  const summaries = Object.entries(run.summaries).sort(([a], [b]) => a.localeCompare(b));
  const counters = Object.entries(run.counters).sort(([a], [b]) => a.localeCompare(b));
  return `<table class="plain metrics"><thead><tr><th>Histogram</th><th class="num">count</th><th class="num">min</th><th class="num">mean</th><th class="num">p50</th><th class="num">p95</th><th class="num">p99</th><th class="num">max</th></tr></thead><tbody>
${summaries.map(([k, v]) => `<tr><td><code>${esc(k)}</code></td><td class="num">${int(v.count)}</td>${['min', 'mean', 'p50', 'p95', 'p99', 'max'].map((f) => `<td class="num">${esc(v[f])}</td>`).join('')}</tr>`).join('\n')}
</tbody></table>
<table class="plain metrics"><thead><tr><th>Counter</th><th class="num">value</th></tr></thead><tbody>
${counters.map(([k, v]) => `<tr><td><code>${esc(k)}</code></td><td class="num">${int(v)}</td></tr>`).join('\n')}
</tbody></table>`;
}

const CSS = `
:root { --ink: #111827; --muted: #4b5563; --line: #e5e7eb; --bg: #f8fafc; --card: #fff; --good: #047857; --bad: #b91c1c; --warn: #b45309; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1140px; padding: 28px 32px 48px; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: var(--bg); }
h1 { font-size: 28px; margin: 0 0 4px; letter-spacing: -0.01em; }
h2 { font-size: 20px; margin: 0 0 10px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.muted, small { color: var(--muted); }
.page-head { display: flex; justify-content: space-between; align-items: flex-start; gap: 24px; }
.eyebrow { margin: 0; text-transform: uppercase; letter-spacing: 0.08em; font-size: 12px; font-weight: 600; color: var(--muted); }
.sub { margin: 0; color: var(--muted); }
.verdict { flex: none; padding: 10px 16px; border-radius: 10px; font-weight: 700; font-size: 16px; border: 2px solid; }
.verdict.passed { color: var(--good); border-color: var(--good); background: #ecfdf5; }
.verdict.failed { color: var(--bad); border-color: var(--bad); background: #fef2f2; }
.verdict.unknown { color: var(--muted); border-color: var(--line); background: var(--card); }
.command { margin: 14px 0 0; display: flex; gap: 10px; align-items: baseline; }
.command span { font-size: 12px; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); font-weight: 600; }
.command code { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 4px 8px; overflow-wrap: anywhere; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 20px 22px; margin-top: 20px; }
table { border-collapse: collapse; width: 100%; }
.comparison th, .comparison td { text-align: left; vertical-align: top; padding: 10px 12px; border-top: 1px solid var(--line); }
.comparison thead th { border-top: 0; font-size: 12px; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); }
.comparison tbody th { width: 22%; font-weight: 600; }
.comparison td { width: 34%; font-variant-numeric: tabular-nums; }
.comparison td:last-child { width: 10%; white-space: nowrap; }
.comparison small { display: block; margin-top: 2px; font-size: 12.5px; }
.tag { display: inline-block; padding: 2px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; }
.tag.lower { background: #d1fae5; color: #065f46; }
.tag.higher { background: #fee2e2; color: #991b1b; }
.tag.similar { background: #e0e7ff; color: #3730a3; }
.tag.info, .tag.missing { background: #f3f4f6; color: #4b5563; }
.part { display: inline-block; font-size: 13px; text-transform: uppercase; letter-spacing: 0.06em; background: #eef2ff; color: #3730a3; border-radius: 6px; padding: 2px 8px; vertical-align: 3px; margin-right: 4px; }
.checks { list-style: none; padding: 0; margin: 6px 0 14px; display: flex; flex-wrap: wrap; gap: 8px; }
.checks li { display: flex; align-items: center; gap: 6px; border: 1px solid var(--line); border-radius: 8px; padding: 3px 10px 3px 4px; }
.checks li span { font-size: 12px; font-weight: 700; border-radius: 5px; padding: 0 6px; color: #fff; }
.checks li.ok span { background: var(--good); }
.checks li.fail span { background: var(--bad); }
.checks li.fail { border-color: #fecaca; background: #fef2f2; }
.tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(132px, 1fr)); gap: 10px; margin: 4px 0 16px; }
.tile { border: 1px solid var(--line); border-radius: 10px; padding: 10px 12px; }
.tile-label { font-size: 12.5px; color: var(--muted); }
.tile-value { font-size: 24px; font-weight: 700; font-variant-numeric: tabular-nums; line-height: 1.25; }
.tile-note { font-size: 12.5px; color: var(--muted); }
.tile.good .tile-value { color: var(--good); }
.tile.bad .tile-value { color: var(--bad); }
.tile.warn .tile-value { color: var(--warn); }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(440px, 1fr)); gap: 14px; }
.charts svg { border: 1px solid var(--line); border-radius: 8px; }
.chart { width: 100%; height: auto; background: #fff; }
.chart .chart-title { font-size: 14px; font-weight: 600; fill: var(--ink); }
.chart .plot { fill: #fbfdff; stroke: var(--line); }
.chart .grid { stroke: #eef0f3; }
.chart .axis { stroke: #9ca3af; }
.chart .tick, .chart .legend { font-size: 11.5px; fill: var(--muted); }
.chart .axis-label { font-size: 11.5px; fill: var(--muted); }
.chart .muted { font-size: 13px; fill: var(--muted); }
.plain th, .plain td { text-align: left; padding: 4px 8px; border-top: 1px solid var(--line); font-size: 13.5px; }
.plain .num { text-align: right; font-variant-numeric: tabular-nums; }
details { margin-top: 14px; }
summary { cursor: pointer; color: var(--muted); font-weight: 600; }
.metrics { margin-top: 8px; }
.warning { border: 1px solid #fcd34d; background: #fffbeb; color: #92400e; border-radius: 8px; padding: 10px 14px; font-weight: 600; }
.notes ul { margin: 0; padding-left: 20px; }
.notes li { margin: 4px 0; }
@media print { body { background: #fff; padding: 0; } section { break-inside: avoid; } }
`;
