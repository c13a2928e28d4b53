// The performance report (docs/how-to/record-and-replay.md#the-performance-record): one self-contained HTML file —
// inline CSS and SVG, no script, no font, nothing fetched — that opens offline in any browser:
// the timeline, the tempo, the audience, the votes, push latency and clock sync, problems.

import { chart } from '#core/report/svg-chart.js';
import { standingWords } from '#core/engine/count-in.js';
import { timelineSvg, timelineLegend, clockOf } from './timeline-svg.js';

const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const int = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en') : '—');

/** 1:02:03 or 2:03. */
export function duration(ms) {
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/**
 * The report's Content-Security-Policy (issue 40 item 15): its text comes from a record, so no
 * script may run and nothing may be fetched, whatever a name in it holds; the inline CSS and
 * the key swatches' colours are the only styles, the SVG is inline.
 */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const CHART_POINTS = 240;
const kb = (n) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MB` : `${(n / 1024).toFixed(1)} KB`);

/**
 * @param {import('./record-story.js').Story} story
 * @returns {string} HTML
 */
export function renderReport(story) {
  const minutes = (t) => Math.round(((t - story.start) / 60_000) * 100) / 100;
  // At most CHART_POINTS points a line: a 2-hour show has 1,440 samples.
  const every = Math.max(1, Math.ceil(story.samples.length / CHART_POINTS));
  const shown = story.samples.filter((_, i) => i % every === 0);
  /** @returns {import('#core/report/svg-chart.js').Series} */
  const series = (label, color, pick, dash = false) => ({
    label,
    color,
    dash,
    points: /** @type {Array<[number, number]>} */ (
      shown.map((s) => [minutes(s.t), pick(s)]).filter(([, y]) => y !== null && y !== undefined)
    ),
  });
  const xLabel = 'minutes into the record';
  const title = story.scores.join(' → ') || 'Performance';
  const peak = story.samples.reduce((m, s) => Math.max(m, s.viewers.ws + s.viewers.sse + s.viewers.poll + (s.viewers.edge ?? 0)), 0);
  const peakEdge = story.samples.reduce((m, s) => Math.max(m, s.viewers.edge ?? 0), 0);
  const joined = story.samples.reduce((n, s) => n + (s.joins ?? 0), 0);
  const tiles = [
    [duration(story.end - story.start), 'recorded'],
    [duration(story.playedMs), 'playing'],
    [int(story.sections.length), 'sections played'],
    [int(story.actions.length), 'actions'],
    [int(story.votes.length), 'votes'],
    [int(peak), 'peak viewers'],
    [int(joined), 'venue joins'],
    [int(story.resumes), 'crash-resumes'],
  ];
  const rehearsalMs = story.rehearsals.reduce((sum, r) => sum + (r.to - r.from), 0);
  if (rehearsalMs > 0) tiles.splice(2, 0, [duration(rehearsalMs), 'in rehearsal mode']);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<title>Tutti performance · ${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<header class="page-head">
  <div>
    <p class="eyebrow">Tutti performance record</p>
    <h1>${esc(title)}</h1>
    <p class="sub">${esc(new Date(story.start).toISOString().slice(0, 10))} · ${esc(clockOf(story.start))}–${esc(clockOf(story.end))} UTC · record ${esc(story.id)}${story.version ? ` · Tutti ${esc(story.version)}` : ''}</p>
  </div>
  <div class="verdict ${story.closed ? 'clean' : 'open'}">${story.closed ? 'Ended with a clean stop' : 'No clean stop (crashed or still running)'}</div>
</header>
<div class="tiles">${tiles.map(([v, l]) => `<div class="tile"><b>${esc(v)}</b><span>${esc(l)}</span></div>`).join('')}</div>

<section id="timeline">
  <h2>Timeline</h2>
  <div class="scroll">${timelineSvg(story)}</div>
  ${timelineLegend()}
  ${chart({
    title: 'Tempo (bpm, as sent)',
    series: [
      {
        label: 'tempo',
        color: '#d97706',
        points: stepPoints(
          story.tempo.map(([t, bpm]) => /** @type {[number, number]} */ ([minutes(t), bpm])),
          minutes(story.end),
        ),
      },
    ],
    width: 1060,
    height: 200,
    xLabel,
    empty: 'no tempo in the record',
  })}
  ${actionList(story)}
</section>

<section id="audience">
  <h2>Audience</h2>
  <p class="muted">Peak ${int(peak)} viewers${peakEdge ? `, ${int(peakEdge)} of them on the edge` : ''}; sampled every few seconds by the server.</p>
  <div class="charts">
  ${chart({ title: 'Viewers connected', series: [series('WebSocket', '#2563eb', (s) => s.viewers.ws), series('SSE', '#0d9488', (s) => s.viewers.sse), series('long-poll', '#7c3aed', (s) => s.viewers.poll), series('edge', '#db2777', (s) => s.viewers.edge, true)], xLabel, width: 500 })}
  ${chart({ title: 'Joins at the venue per sample', series: [{ ...series('joins', '#16a34a', (s) => s.joins), kind: 'column' }], xLabel, width: 500 })}
  </div>
</section>

<section id="votes">
  <h2>Votes</h2>
  ${story.votes.length ? story.votes.map(voteCard).join('\n') : '<p class="muted">No prompt closed during this record.</p>'}
</section>

<section id="quality">
  <h2>Push latency and clock sync</h2>
  <div class="charts">
  ${chart({ title: 'Push latency (server-side probe)', unit: 'ms', series: [series('p50', '#2563eb', (s) => s.latency.p50), series('p99', '#dc2626', (s) => s.latency.p99)], xLabel, width: 500, empty: 'no latency samples (the probe was not connected)' })}
  ${chart({ title: "Part pages' clock sync", unit: 'ms', series: [series('bound p50 (±ms)', '#0d9488', (s) => s.sync.boundP50), series('bound max (±ms)', '#7c3aed', (s) => s.sync.boundMax, true), series('round trip p50', '#64748b', (s) => s.sync.rttP50)], xLabel, width: 500, empty: 'no part page reported during this record' })}
  </div>
  <p class="muted">Push latency: envelope created → received by a loopback WebSocket viewer inside the server (encode, fan-out, socket write; not the Wi-Fi). Clock sync: what the musicians' part pages report of their own sync (± bound and round trip); audience phones do not report theirs.</p>
</section>

<section id="problems">
  <h2>Errors and refusals</h2>
  ${problems(story)}
</section>

<footer class="muted">${int(story.envelopes)} envelopes, ${int(story.actions.length)} actions, ${int(story.samples.length)} samples${story.bytes ? ` · ${kb(story.bytes.disk)} on disk (${kb(story.bytes.json)} of JSON lines)` : ''}${story.torn ? ` · ${int(story.torn)} torn line(s) skipped (a crash mid-write)` : ''}. Times are UTC.</footer>
</body>
</html>
`;
}

/**
 * A step function's points: each value holds until the next change (and to the end).
 * @param {Array<[number, number]>} points
 * @param {number} endX
 * @returns {Array<[number, number]>}
 */
function stepPoints(points, endX) {
  /** @type {Array<[number, number]>} */
  const out = [];
  points.forEach(([x, y], i) => {
    if (i > 0) out.push([x, points[i - 1][1]]);
    out.push([x, y]);
  });
  if (points.length) out.push([endX, points.at(-1)[1]]);
  return out;
}

function actionList(story) {
  if (!story.actions.length && !story.outages.length) return '<p class="muted">Nobody touched the transport.</p>';
  const rows = [
    ...story.actions.map((a) => ({
      t: a.t,
      html: `<td>${esc(a.what)}</td><td>${esc(a.by)}</td><td>${a.after ? esc(`${standingWords(a.after)}, ${a.after.tempo} bpm`) : ''}</td>`,
    })),
    ...story.outages.map((o) => ({
      t: o.from,
      html: `<td class="bad">server down (crash)</td><td>—</td><td>resumed at ${esc(clockOf(o.to))} (${esc(duration(o.to - o.from))} later)</td>`,
    })),
  ].sort((a, b) => a.t - b.t);
  return `<h3>Who did what</h3><table class="list"><thead><tr><th>time (UTC)</th><th>action</th><th>by</th><th>then</th></tr></thead><tbody>${rows.map((r) => `<tr><td>${esc(clockOf(r.t))}</td>${r.html}</tr>`).join('')}</tbody></table>`;
}

function voteCard(vote) {
  const max = Math.max(1, ...vote.options.map((o) => o.count ?? 0));
  const bars = vote.options
    .map((o) => {
      const venue = o.venue ?? o.count ?? 0;
      const edge = o.edge ?? 0;
      const win = o.id === vote.winner;
      return `<div class="vote-row${win ? ' win' : ''}"><span class="vote-label">${esc(o.label ?? o.id)}${win ? ' ✓' : ''}</span><svg class="vote-bar" viewBox="0 0 400 22" width="400" height="22" role="img" aria-label="${esc(`${o.label ?? o.id}: ${o.count}`)}"><rect x="0" y="2" width="${((venue / max) * 330).toFixed(1)}" height="18" fill="#2563eb"/><rect x="${((venue / max) * 330).toFixed(1)}" y="2" width="${((edge / max) * 330).toFixed(1)}" height="18" fill="#db2777"/><text x="${(((venue + edge) / max) * 330 + 6).toFixed(1)}" y="16" class="vote-count">${int(o.count)}</text></svg></div>`;
    })
    .join('');
  const branch = vote.branch ? ` The show branched at bar ${vote.branch.bar}.` : '';
  return `<div class="vote"><h3>${esc(vote.q ?? vote.id)} <small>${esc(clockOf(vote.t))} · ${int(vote.total)} votes${vote.edge && vote.edge !== 'off' ? ` · edge count ${esc(vote.edge)}` : ''}</small></h3>${bars}<p class="muted"><span class="key"><i style="background:#2563eb"></i>venue</span><span class="key"><i style="background:#db2777"></i>edge</span> ${esc(vote.winner ?? '')} won.${esc(branch)}</p></div>`;
}

function problems(story) {
  const refused = Object.entries(story.refused).sort((a, b) => b[1] - a[1]);
  const max = Math.max(1, ...refused.map(([, n]) => n));
  const refusedHtml = refused.length
    ? `<h3>Refused input, by source</h3>${refused.map(([source, n]) => `<div class="vote-row"><span class="vote-label"><code>${esc(source)}</code></span><svg class="vote-bar" viewBox="0 0 400 22" width="400" height="22" role="img" aria-label="${esc(`${source}: ${n}`)}"><rect x="0" y="2" width="${((n / max) * 330).toFixed(1)}" height="18" fill="#b45309"/><text x="${((n / max) * 330 + 6).toFixed(1)}" y="16" class="vote-count">${int(n)}</text></svg></div>`).join('')}<p class="muted">Counted in <code>tutti_bad_input_total</code>, <code>tutti_overflow_total</code> (turned away by --max-clients) and <code>tutti_connections_rejected_total</code>; see README.md.</p>`
    : '<p class="muted">No input was refused.</p>';
  const log = story.problems.length
    ? `<h3>Warnings and errors in the log</h3><table class="list"><thead><tr><th>time (UTC)</th><th>level</th><th>message</th></tr></thead><tbody>${story.problems.map((p) => `<tr><td>${esc(clockOf(p.wall ?? p.t))}</td><td class="${p.level === 'error' ? 'bad' : 'warn'}">${esc(p.level)}</td><td>${esc(p.msg)}</td></tr>`).join('')}</tbody></table>`
    : '<p class="muted">No warnings or errors in the log.</p>';
  return refusedHtml + log;
}

const CSS = `
:root { --ink: #111827; --muted: #4b5563; --line: #e5e7eb; --bg: #f8fafc; --card: #fff; --good: #047857; --bad: #b91c1c; --warn: #b45309; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1140px; padding: 28px 32px 48px; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; color: var(--ink); background: var(--bg); }
h1 { font-size: 28px; margin: 0 0 4px; } h2 { font-size: 20px; margin: 0 0 10px; } h3 { font-size: 15px; margin: 18px 0 6px; }
h3 small { font-weight: 400; color: var(--muted); }
code { font: 13px/1.4 ui-monospace, Menlo, Consolas, monospace; }
.muted { color: var(--muted); }
.page-head { display: flex; justify-content: space-between; align-items: flex-start; gap: 24px; }
.eyebrow { margin: 0; text-transform: uppercase; letter-spacing: 0.08em; font-size: 12px; font-weight: 600; color: var(--muted); }
.sub { margin: 0; color: var(--muted); }
.verdict { flex: none; padding: 10px 16px; border-radius: 10px; font-weight: 700; border: 2px solid; }
.verdict.clean { color: var(--good); border-color: var(--good); background: #ecfdf5; }
.verdict.open { color: var(--warn); border-color: var(--warn); background: #fffbeb; }
.tiles { display: grid; grid-template-columns: repeat(8, 1fr); gap: 10px; margin: 18px 0 0; }
.tile { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 10px 12px; }
.tile b { display: block; font-size: 22px; font-variant-numeric: tabular-nums; } .tile span { font-size: 12.5px; color: var(--muted); }
section { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 20px 22px; margin-top: 20px; }
.scroll { overflow-x: auto; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
table.list { border-collapse: collapse; width: 100%; font-size: 14px; }
.list th, .list td { text-align: left; padding: 5px 10px; border-top: 1px solid var(--line); vertical-align: top; }
.list thead th { border-top: 0; font-size: 12px; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); }
.list td:first-child { font-variant-numeric: tabular-nums; white-space: nowrap; }
.bad { color: var(--bad); font-weight: 600; } .warn { color: var(--warn); font-weight: 600; }
.keys { margin: 6px 0 0; font-size: 13px; color: var(--muted); }
.key { display: inline-flex; align-items: center; gap: 5px; margin-right: 12px; }
.key i { display: inline-block; width: 12px; height: 12px; border-radius: 3px; }
.timeline .lane { fill: #f8fafc; stroke: var(--line); }
.timeline .lane-label { font-size: 13px; font-weight: 600; fill: var(--muted); }
.timeline .section { stroke: #fff; stroke-width: 1; }
.timeline .section-label { font-size: 12px; fill: #fff; font-weight: 600; }
.timeline .outage { fill: #dc2626; opacity: 0.85; }
.timeline .rehearsal { fill: url(#rehearsal-hatch); stroke: #7c3aed; stroke-width: 1; }
.key.hatched i { background: repeating-linear-gradient(45deg, #7c3aed 0 3px, #fff 3px 6px) !important; border: 1px solid #7c3aed; }
.timeline .marker { stroke: #fff; stroke-width: 1; }
.timeline .tick-line { stroke: #eef0f3; }
.timeline .tick { font-size: 11.5px; fill: var(--muted); }
.chart .chart-title { font-size: 14px; font-weight: 600; fill: var(--ink); }
.chart .plot { fill: #fbfdff; stroke: var(--line); }
.chart .grid { stroke: #eef0f3; }
.chart .axis { stroke: #9ca3af; }
.chart .tick, .chart .legend, .chart .axis-label, .chart .muted { font-size: 11.5px; fill: var(--muted); }
.vote { border-top: 1px solid var(--line); padding-top: 4px; }
.vote-row { display: flex; align-items: center; gap: 12px; margin: 4px 0; }
.vote-label { width: 220px; text-align: right; font-size: 14px; }
.vote-row.win .vote-label { font-weight: 700; }
.vote-count { font-size: 12px; fill: var(--ink); }
footer { margin-top: 20px; font-size: 13px; }
@media print { body { background: #fff; } section { break-inside: avoid; } }
`;
