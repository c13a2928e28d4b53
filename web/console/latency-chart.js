// A small live chart (SVG, no library): p50 and p99 push latency per second, and the viewer
// count on its own scale, over the last two minutes. Gaps (no samples) break the lines.

import { svg, fill } from './dom.js';

const SPAN_MS = 120_000;
const PAD = { left: 34, right: 38, top: 10, bottom: 18 };

/** A round upper bound for an axis: 1, 2, 5 × 10^n. */
function niceMax(value, floor) {
  const v = Math.max(value, floor);
  const exp = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * exp).find((m) => m >= v);
}

/**
 * @param {SVGSVGElement} el
 * @param {Array<{ t: number, p50: number | null, p99: number | null, viewers: number }>} history
 */
export function drawLatencyChart(el, history) {
  const width = Math.max(200, Math.round(el.clientWidth || 600));
  const height = Math.max(80, Math.round(el.clientHeight || 150));
  el.setAttribute('viewBox', `0 0 ${width} ${height}`);
  el.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const newest = history.length ? history[history.length - 1].t : 0;
  const yMax = niceMax(Math.max(0, ...history.map((p) => p.p99 ?? 0)), 5);
  const vMax = niceMax(Math.max(0, ...history.map((p) => p.viewers)), 10);
  const x = (t) => PAD.left + plotW - ((newest - t) / SPAN_MS) * plotW;
  const y = (ms) => PAD.top + plotH - (Math.min(ms, yMax) / yMax) * plotH;
  const yv = (n) => PAD.top + plotH - (n / vMax) * plotH;

  const parts = [];
  for (const f of [0, 0.5, 1]) {
    const gy = PAD.top + plotH - f * plotH;
    parts.push(svg('line', { class: 'grid-line', x1: PAD.left, x2: PAD.left + plotW, y1: gy, y2: gy }));
    parts.push(svg('text', { class: 'axis-label', x: PAD.left - 6, y: gy + 3, 'text-anchor': 'end', text: `${+(yMax * f).toFixed(1)}` }));
    parts.push(
      svg('text', { class: 'axis-label', x: PAD.left + plotW + 6, y: gy + 3, 'text-anchor': 'start', text: `${Math.round(vMax * f)}` }),
    );
  }
  parts.push(svg('text', { class: 'axis-label', x: PAD.left, y: height - 4, text: '−2 min' }));
  parts.push(svg('text', { class: 'axis-label', x: PAD.left + plotW, y: height - 4, 'text-anchor': 'end', text: 'now' }));

  const line = (key, scale) => {
    let d = '';
    let drawing = false;
    for (const p of history) {
      const v = p[key];
      if (v === null || v === undefined || newest - p.t > SPAN_MS) {
        drawing = false;
        continue;
      }
      d += `${drawing ? 'L' : 'M'}${x(p.t).toFixed(1)} ${scale(v).toFixed(1)}`;
      drawing = true;
    }
    return d;
  };
  const viewers = line('viewers', yv);
  const p99 = line('p99', y);
  const p50 = line('p50', y);
  if (viewers) parts.push(svg('path', { class: 'line line-viewers', d: viewers }));
  if (p99) parts.push(svg('path', { class: 'line line-p99', d: p99 }));
  if (p50) parts.push(svg('path', { class: 'line line-p50', d: p50 }));
  if (!p50 && !p99) {
    parts.push(
      svg('text', {
        class: 'empty-note',
        x: PAD.left + plotW / 2,
        y: PAD.top + plotH / 2,
        'text-anchor': 'middle',
        text: 'No pushes yet: latency appears while the show plays.',
      }),
    );
  }
  fill(/** @type {any} */ (el), ...parts);
}
