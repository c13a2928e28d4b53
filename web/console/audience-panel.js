// Audience: viewers by transport and by path (local / edge), joins per second, push latency
// p50/p99 with a live chart, resyncs, slow clients dropped; plus the join URL and QR code.

import { $, setText, num, fill, h } from './dom.js';
import { drawLatencyChart } from './latency-chart.js';

export function createAudiencePanel() {
  const chart = /** @type {any} */ ($('latency-chart'));
  let history = [];

  function setViewers(v) {
    if (!v) return;
    setText($('v-total'), v.total);
    setText($('v-local'), v.local.total);
    setText($('v-local-split'), `ws ${v.local.ws} · sse ${v.local.sse} · poll ${v.local.poll}`);
    setText($('v-edge'), v.edge === null ? '—' : v.edge);
  }

  function setStats(stats) {
    if (!stats) return;
    setText($('v-joins'), num(stats.joinsPerSecond, stats.joinsPerSecond % 1 ? 1 : 0));
    setText($('lat-p50'), num(stats.latency.p50, 1));
    setText($('lat-p99'), num(stats.latency.p99, 1));
    setText($('v-resyncs'), stats.resyncs);
    setText($('v-slow'), stats.slowClientsClosed);
    setText($('v-coalesced'), `${stats.framesCoalesced} frames coalesced`);
    const probe = stats.latency.probe;
    const probeTag = $('probe-state');
    // Green only once there is something to show: an open probe with no samples measured nothing yet.
    const measuring = probe.state === 'open' && stats.latency.samples > 0;
    const probeText =
      probe.state !== 'open'
        ? `probe ${probe.state}${probe.error ? `: ${probe.error}` : ''}`
        : measuring
          ? `probe: ${stats.latency.samples} samples / ${stats.latency.windowMs / 1000} s`
          : 'probe: no samples yet (updates arrive while the show plays)';
    setText(probeTag, probeText);
    probeTag.className = `tag ${measuring ? 'tag-ok' : probe.error ? 'tag-warn' : ''}`;
    setText($('latency-about'), `p50/p99: ${stats.latency.label} — ${stats.latency.about}.`);
    history = stats.history ?? history;
    drawLatencyChart(chart, history);
  }

  function setJoin(audience) {
    if (!audience) return;
    const link = /** @type {HTMLAnchorElement} */ ($('audience-url'));
    link.href = audience.url;
    if (link.dataset.url !== audience.url) {
      link.dataset.url = audience.url;
      // Split before the port so a narrow card wraps there, not in the middle of the number.
      const at = audience.url.search(/:\d+\/$/);
      const parts = at > 'http://'.length ? [audience.url.slice(0, at), audience.url.slice(at)] : [audience.url];
      fill(link, ...parts.map((text) => h('span', { class: 'url-part', text })));
    }
    const qr = /** @type {HTMLImageElement} */ ($('qr'));
    const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(audience.qrSvg)}`;
    if (qr.src !== src) qr.src = src;
    setText(
      $('audience-local'),
      audience.lanAddress
        ? `Phones on the venue Wi-Fi scan the code. On this machine: ${audience.localUrl}`
        : `On this machine: ${audience.localUrl}`,
    );
    const warning = $('audience-warning');
    warning.hidden = !audience.warning;
    setText(warning, audience.warning ?? '');
  }

  $('copy-url').addEventListener('click', async () => {
    const url = $('audience-url').textContent ?? '';
    try {
      await navigator.clipboard.writeText(url);
      setText($('copy-url'), 'Copied');
    } catch {
      setText($('copy-url'), 'Copy failed');
    }
    setTimeout(() => setText($('copy-url'), 'Copy'), 1500);
  });
  window.addEventListener('resize', () => drawLatencyChart(chart, history));

  return { setViewers, setStats, setJoin };
}
