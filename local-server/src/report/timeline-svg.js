// The report's timeline of a performance as one SVG (docs/how-to/record-and-replay.md#the-performance-record): a
// lane for the transport (playing, paused, stopped, the server down after a crash), a lane for
// the sections as they were played, and a lane of markers for what people did (seeks, tempo
// changes, pauses, branches a vote took), each with its time and who did it on hover.

const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

const TRANSPORT_COLORS = { playing: '#16a34a', paused: '#f59e0b', stopped: '#cbd5e1' };
const SECTION_COLORS = ['#2563eb', '#7c3aed', '#0d9488', '#db2777', '#ea580c', '#4f46e5', '#0891b2', '#65a30d'];
const MARKER_COLORS = {
  seek: '#2563eb',
  tempo: '#d97706',
  branch: '#db2777',
  pause: '#f59e0b',
  play: '#16a34a',
  stop: '#64748b',
  rehearsal: '#7c3aed',
  other: '#475569',
};
/** Stretches in rehearsal mode: hatched over the transport lane (docs/how-to/rehearse.md#rehearsal-mode). */
const REHEARSAL_COLOR = '#7c3aed';

/** Clock time of an epoch-ms instant, UTC (the record does not know the venue's time zone). */
export const clockOf = (t) => new Date(t).toISOString().slice(11, 19);

/** The marker kind of an action entry. */
export function markerKind(action) {
  if (action.kind === 'branch') return 'branch';
  if (action.kind === 'tempo') return 'tempo';
  if (action.kind === 'rehearsal') return 'rehearsal';
  const verb = String(action.what).split(' ')[0];
  return MARKER_COLORS[verb] ? verb : 'other';
}

/**
 * @param {import('./record-story.js').Story} story
 * @param {{ width?: number }} [options]
 * @returns {string} an <svg> element
 */
export function timelineSvg(story, { width = 1060 } = {}) {
  const pad = { left: 96, right: 16, top: 16 };
  const lane = 30;
  const plotW = width - pad.left - pad.right;
  const span = Math.max(1, story.end - story.start);
  const x = (t) => pad.left + ((t - story.start) / span) * plotW;
  const w = (from, to) => Math.max(1, x(to) - x(from));
  const rows = { transport: pad.top, sections: pad.top + lane + 8, actions: pad.top + 2 * (lane + 8) };
  const height = rows.actions + lane + 44;
  const parts = [
    `<svg class="timeline" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Timeline of the performance" xmlns="http://www.w3.org/2000/svg">`,
    `<defs><pattern id="rehearsal-hatch" patternUnits="userSpaceOnUse" width="8" height="8" patternTransform="rotate(45)"><rect width="8" height="8" fill="#ffffff" opacity="0.35"/><rect width="3.5" height="8" fill="${REHEARSAL_COLOR}" opacity="0.8"/></pattern></defs>`,
  ];
  for (const [name, y] of Object.entries({ Transport: rows.transport, Sections: rows.sections, Actions: rows.actions })) {
    parts.push(`<text x="${pad.left - 10}" y="${y + lane / 2 + 4}" text-anchor="end" class="lane-label">${name}</text>`);
    parts.push(`<rect x="${pad.left}" y="${y}" width="${plotW}" height="${lane}" class="lane"/>`);
  }
  for (const s of story.transports) {
    parts.push(
      `<rect x="${x(s.from).toFixed(1)}" y="${rows.transport}" width="${w(s.from, s.to).toFixed(1)}" height="${lane}" fill="${TRANSPORT_COLORS[s.transport] ?? '#cbd5e1'}"><title>${esc(`${s.transport} ${clockOf(s.from)}–${clockOf(s.to)}`)}</title></rect>`,
    );
  }
  for (const r of story.rehearsals ?? []) {
    parts.push(
      `<rect x="${x(r.from).toFixed(1)}" y="${rows.transport}" width="${w(r.from, r.to).toFixed(1)}" height="${lane}" class="rehearsal"><title>${esc(`rehearsal mode: the audience saw "the show starts soon" ${clockOf(r.from)}–${clockOf(r.to)}`)}</title></rect>`,
    );
  }
  for (const o of story.outages) {
    parts.push(
      `<rect x="${x(o.from).toFixed(1)}" y="${rows.transport}" width="${w(o.from, o.to).toFixed(1)}" height="${lane}" class="outage"><title>${esc(`server down (crash) ${clockOf(o.from)}–${clockOf(o.to)}, then resumed`)}</title></rect>`,
    );
  }
  const marks = [...new Set(story.sections.map((s) => s.mark))];
  for (const s of story.sections) {
    const color = SECTION_COLORS[marks.indexOf(s.mark) % SECTION_COLORS.length];
    const label = s.name ? `${s.mark} · ${s.name}` : s.mark;
    parts.push(
      `<rect x="${x(s.from).toFixed(1)}" y="${rows.sections}" width="${w(s.from, s.to).toFixed(1)}" height="${lane}" fill="${color}" class="section"><title>${esc(`section ${label} (bar ${s.bar}) ${clockOf(s.from)}–${clockOf(s.to)}`)}</title></rect>`,
    );
    if (w(s.from, s.to) > 8 * label.length)
      parts.push(`<text x="${(x(s.from) + 5).toFixed(1)}" y="${rows.sections + lane / 2 + 4}" class="section-label">${esc(label)}</text>`);
    else if (w(s.from, s.to) > 14)
      parts.push(`<text x="${(x(s.from) + 3).toFixed(1)}" y="${rows.sections + lane / 2 + 4}" class="section-label">${esc(s.mark)}</text>`);
  }
  for (const a of story.actions) {
    const kind = markerKind(a);
    const cx = x(a.t);
    const cy = rows.actions + lane / 2;
    const shape =
      kind === 'branch'
        ? `<path d="M${cx.toFixed(1)} ${cy - 9} l8 9 l-8 9 l-8 -9 z"`
        : kind === 'tempo'
          ? `<circle cx="${cx.toFixed(1)}" cy="${cy}" r="6"`
          : `<path d="M${(cx - 6).toFixed(1)} ${cy - 8} h12 l-6 14 z"`;
    parts.push(
      `${shape} fill="${MARKER_COLORS[kind]}" class="marker marker-${kind}"><title>${esc(`${clockOf(a.t)} ${a.what} — ${a.by}`)}</title>${shape.startsWith('<circle') ? '</circle>' : '</path>'}`,
    );
  }
  const axisY = rows.actions + lane + 16;
  const minutes = span / 60_000;
  const step = [1, 2, 5, 10, 15, 30, 60].find((m) => minutes / m <= 12) ?? 120;
  for (let m = 0; m <= minutes + 1e-9; m += step) {
    const px = pad.left + (m / minutes) * plotW;
    parts.push(`<line x1="${px.toFixed(1)}" x2="${px.toFixed(1)}" y1="${pad.top}" y2="${axisY - 10}" class="tick-line"/>`);
    parts.push(`<text x="${px.toFixed(1)}" y="${axisY + 4}" text-anchor="middle" class="tick">${m} min</text>`);
  }
  parts.push(
    `<text x="${pad.left}" y="${axisY + 22}" class="tick">${esc(clockOf(story.start))} UTC</text><text x="${pad.left + plotW}" y="${axisY + 22}" text-anchor="end" class="tick">${esc(clockOf(story.end))} UTC</text>`,
  );
  parts.push('</svg>');
  return parts.join('\n');
}

/** The legend under the timeline (HTML). */
export function timelineLegend() {
  const item = (color, label, cls = '') => `<span class="key${cls}"><i style="background:${color}"></i>${esc(label)}</span>`;
  return (
    `<p class="keys">${item(TRANSPORT_COLORS.playing, 'playing')}${item(TRANSPORT_COLORS.paused, 'paused')}${item(TRANSPORT_COLORS.stopped, 'stopped')}${item('#dc2626', 'server down (crash)')}${item(REHEARSAL_COLOR, 'rehearsal mode (hatched)', ' hatched')}` +
    ` · ${item(MARKER_COLORS.seek, 'seek')}${item(MARKER_COLORS.tempo, 'tempo')}${item(MARKER_COLORS.branch, 'branch (vote)')}${item(MARKER_COLORS.pause, 'pause')}${item(MARKER_COLORS.play, 'play')}${item(MARKER_COLORS.stop, 'stop')}${item(MARKER_COLORS.rehearsal, 'rehearsal mode on/off')}</p>`
  );
}
