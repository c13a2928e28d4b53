// Small, dependency-free SVG charts for the offline report: lines for percentiles over time and
// columns for counts per period. Text is real SVG text (selectable, sharp when printed).

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** Round axis maximum and step: 1, 2, 2.5 or 5 × 10^n. */
export function niceScale(max, ticks = 4) {
  if (!(max > 0) || !Number.isFinite(max)) return { max: 1, step: 0.25 };
  const raw = max / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  return { max: Math.ceil(max / step - 1e-9) * step, step };
}

const fmtTick = (v, unit) => {
  if (unit === 'ms' && v >= 1000) return `${Number((v / 1000).toFixed(2))} s`;
  if (v >= 1e6) return `${Number((v / 1e6).toFixed(1))}M`;
  if (v >= 1e4) return `${Number((v / 1e3).toFixed(0))}k`;
  return `${Number(v.toFixed(2))}${unit === 'ms' ? ' ms' : ''}`;
};

/**
 * @typedef {{ label: string, color: string, points: Array<[number, number]>, dash?: boolean, kind?: 'line' | 'column' }} Series
 * @param {{ title: string, unit?: string, series: Series[], width?: number, height?: number, xLabel?: string, yFloor?: number, empty?: string }} options
 *   x values are seconds from the start of the run
 * @returns {string} an <svg> element
 */
export function chart({
  title,
  unit = '',
  series,
  width = 520,
  height = 230,
  xLabel = 'seconds into the run',
  empty = 'no data in this run',
}) {
  const pad = { left: 58, right: 14, top: 46, bottom: 44 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const all = series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const head = `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${esc(title)}" xmlns="http://www.w3.org/2000/svg">
<text x="${pad.left}" y="18" class="chart-title">${esc(title)}</text>`;
  if (all.length === 0) {
    return `${head}<rect x="${pad.left}" y="${pad.top}" width="${plotW}" height="${plotH}" class="plot"/><text x="${pad.left + plotW / 2}" y="${pad.top + plotH / 2}" text-anchor="middle" class="muted">${esc(empty)}</text></svg>`;
  }
  const columns = series.filter((s) => s.kind === 'column');
  const xs = [...new Set(all.map(([x]) => x))].sort((a, b) => a - b);
  const xMin = xs[0];
  const xMax = xs[xs.length - 1];
  const period = xs.length > 1 ? Math.min(...xs.slice(1).map((x, i) => x - xs[i])) : 10;
  // Columns (and a lone point) need half a period of room at each end.
  const roomy = columns.length > 0 || xs.length === 1;
  const x0 = roomy ? xMin - period / 2 : xMin;
  const x1 = roomy ? xMax + period / 2 : xMax;
  const yTop = niceScale(Math.max(...all.map(([, y]) => y)));
  const yMin = Math.min(0, ...all.map(([, y]) => y));
  const sx = (x) => pad.left + ((x - x0) / (x1 - x0 || 1)) * plotW;
  const sy = (y) => pad.top + plotH - ((y - yMin) / (yTop.max - yMin || 1)) * plotH;

  const parts = [head, `<rect x="${pad.left}" y="${pad.top}" width="${plotW}" height="${plotH}" class="plot"/>`];
  for (let v = 0; v <= yTop.max + 1e-9; v += yTop.step) {
    const y = sy(v);
    parts.push(`<line x1="${pad.left}" x2="${pad.left + plotW}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" class="grid"/>`);
    parts.push(`<text x="${pad.left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end" class="tick">${esc(fmtTick(v, unit))}</text>`);
  }
  const xStep = niceScale(x1 - x0, 6).step;
  for (let v = Math.max(0, Math.ceil(x0 / xStep) * xStep); v <= x1 + 1e-9; v += xStep) {
    const x = sx(v);
    parts.push(`<line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${pad.top + plotH}" y2="${pad.top + plotH + 4}" class="axis"/>`);
    parts.push(
      `<text x="${x.toFixed(1)}" y="${pad.top + plotH + 17}" text-anchor="middle" class="tick">${esc(Number(v.toFixed(1)))}</text>`,
    );
  }
  parts.push(`<text x="${pad.left + plotW / 2}" y="${height - 6}" text-anchor="middle" class="axis-label">${esc(xLabel)}</text>`);

  const colW = Math.max(3, ((plotW / ((x1 - x0) / period)) * 0.7) / Math.max(1, columns.length));
  columns.forEach((s, i) => {
    for (const [x, y] of s.points) {
      const left = sx(x) - (colW * columns.length) / 2 + i * colW;
      parts.push(
        `<rect x="${left.toFixed(1)}" y="${sy(Math.max(0, y)).toFixed(1)}" width="${colW.toFixed(1)}" height="${Math.max(0, sy(0) - sy(Math.max(0, y))).toFixed(1)}" fill="${s.color}" class="col"><title>${esc(`${s.label}: ${fmtTick(y, unit)} at ${x} s`)}</title></rect>`,
      );
    }
  });
  for (const s of series.filter((z) => z.kind !== 'column')) {
    const pts = s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
    if (pts.length > 1) {
      parts.push(
        `<polyline fill="none" stroke="${s.color}" stroke-width="2"${s.dash ? ' stroke-dasharray="5 4"' : ''} points="${pts.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' ')}"/>`,
      );
    }
    for (const [x, y] of pts) {
      parts.push(
        `<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="3" fill="${s.color}"><title>${esc(`${s.label}: ${fmtTick(y, unit)} at ${x} s`)}</title></circle>`,
      );
    }
  }
  // Legend on its own line under the title, so long titles never collide with it.
  let lx = pad.left;
  for (const s of series) {
    parts.push(
      s.kind === 'column'
        ? `<rect x="${lx.toFixed(1)}" y="26" width="12" height="10" fill="${s.color}"/>`
        : `<line x1="${lx.toFixed(1)}" x2="${(lx + 14).toFixed(1)}" y1="31" y2="31" stroke="${s.color}" stroke-width="2.5"${s.dash ? ' stroke-dasharray="4 3"' : ''}/>`,
    );
    parts.push(`<text x="${(lx + 18).toFixed(1)}" y="35" class="legend">${esc(s.label)}</text>`);
    lx += 30 + s.label.length * 6.6;
  }
  parts.push('</svg>');
  return parts.join('\n');
}
