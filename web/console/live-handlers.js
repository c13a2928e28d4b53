// The live feed (live.js) into the panels: the snapshot on (re)connect, then each event to the
// panels it concerns. A snapshot from a restarted server says so in the banner, with a way back
// to the bar the show had reached.

import { $, setText, clockTime } from './dom.js';
import { bridge } from './bridge.js';

/**
 * @param {object} deps
 * @param {any} deps.api the control API (api.js)
 * @param {{ observe: (serverMs: number) => void }} deps.clock the server clock (server-clock.js)
 * @param {{ show: (text: string, kind?: string, actions?: any[]) => void, hide: () => void }} deps.banner
 * @param {Record<string, any>} deps.panels transport, rehearsal, rehearsalMode, score, audience, osc, edge, log, voices, editor
 * @returns {Record<string, (event: any) => void>} one handler per live event
 */
export function createLiveHandlers({ api, clock, banner, panels }) {
  const { transport, rehearsal, rehearsalMode, score, audience, osc, edge, log, voices, editor } = panels;
  let startedAt = null;
  let lastPosition = null;

  const modeNames = { electron: 'Desktop app', browser: 'Browser console', serve: 'tutti serve' };
  function applySnapshot(snap) {
    clock.observe(snap.s ?? snap.now);
    const modeBadge = $('mode-badge');
    setText(modeBadge, bridge ? 'Desktop app' : (modeNames[snap.mode] ?? snap.mode));
    modeBadge.title = snap.settingsPath ? `Settings: ${snap.settingsPath}` : 'Settings are not saved in this mode';
    if (startedAt !== null && snap.startedAt !== startedAt) {
      const back =
        lastPosition && lastPosition.bar > 1
          ? [
              [
                `Back to bar ${lastPosition.bar}`,
                () =>
                  api
                    .post('/api/transport', { action: 'seek', bar: lastPosition.bar, beat: 1 })
                    .then(transport.setStatus)
                    .then(banner.hide, () => {}),
              ],
            ]
          : [];
      banner.show(
        `The show server restarted at ${clockTime(snap.startedAt)}. Viewers reconnect by themselves; the transport is stopped.`,
        'warn',
        [...back, ['Dismiss', banner.hide]],
      );
    }
    startedAt = snap.startedAt;
    transport.setScore(snap.score);
    transport.setStatus(snap.transport);
    rehearsal.setScore(snap.score);
    rehearsal.render(snap.transport);
    rehearsalMode.render(snap.transport);
    score.setScore(snap.score);
    score.setRecent(snap.recentScores);
    score.setLastAttempt(snap.lastAttempt);
    audience.setJoin(snap.audience);
    audience.setViewers(snap.viewers);
    audience.setStats(snap.stats);
    osc.render(snap.osc);
    edge.render(snap.edge);
    score.setNotation(snap.notation);
    log.set(snap.log);
    voices.render(snap.voices);
  }

  const handlers = {
    hello: applySnapshot,
    beat: (beat) => {
      clock.observe(beat.s);
      transport.onBeat(beat);
    },
    transport: (status) => {
      clock.observe(status.s);
      transport.setStatus(status);
      rehearsal.render(status);
      rehearsalMode.render(status);
    },
    countin: (event) => {
      clock.observe(event.s);
      transport.onCountIn(event);
    },
    score: (event) => {
      transport.setScore(event.score);
      rehearsal.setScore(event.score);
      score.setScore(event.score);
      score.setRecent(event.recentScores);
      editor.scoreChanged(event.score, event.revision ?? null);
    },
    stats: (event) => {
      clock.observe(event.s);
      audience.setStats(event.stats);
      audience.setViewers(event.viewers);
      edge.render(event.edge);
      osc.render(event.osc);
      score.setNotation(event.notation);
      if (event.transport.transport !== 'playing') transport.setStatus(event.transport);
      rehearsal.render(event.transport);
      rehearsalMode.render(event.transport);
      lastPosition = transport.status().position;
    },
    log: (event) => log.add(event.entries),
    voices: (event) => voices.render(event),
  };

  return handlers;
}
