// The composer's console: wires the panels to the control API and the live feed. Runs the same
// in a browser (served on the loopback control listener) and in the desktop app.

import { $, setText, clockTime, h, fill } from './dom.js';
import { takeToken, keepToken, forgetToken } from './token.js';
import { createApi } from './api.js';
import { connectLive } from './live.js';
import { createServerClock } from './server-clock.js';
import { createTransportPanel } from './transport-panel.js';
import { createScorePanel } from './score-panel.js';
import { createAudiencePanel } from './audience-panel.js';
import { createOscPanel } from './osc-panel.js';
import { createEdgePanel } from './edge-panel.js';
import { createLogPanel } from './log-panel.js';
import { createPartsPanel } from './parts-panel.js';
import { createVoicesPanel } from './voices-panel.js';
import { createRecordsPanel } from './records-panel.js';
import { createRehearsalPanel } from './rehearsal-panel.js';
import { createRehearsalMode } from './rehearsal-mode.js';
import { createReplayPanel } from './replay-panel.js';
import { installShortcuts } from './shortcuts.js';
import { createEditorPanel } from './editor/editor-panel.js';
import { installEditToggle } from './editor/edit-toggle.js';
import { bridge } from './bridge.js';
import { createLiveHandlers } from './live-handlers.js';

let askedForToken = false;
/**
 * The token dialog over the whole page. With `error`, the server refused the token this page
 * had: say so, so the page never sits there looking live but dead.
 * @param {string} [error]
 */
function askForToken(error) {
  $('auth').hidden = false;
  const problem = $('auth-error');
  problem.hidden = !error;
  setText(problem, error ?? '');
  /** @type {HTMLInputElement} */ ($('auth-token')).focus();
  if (askedForToken) return;
  askedForToken = true;
  $('auth-form').addEventListener('submit', (e) => {
    e.preventDefault();
    keepToken(/** @type {HTMLInputElement} */ ($('auth-token')).value.trim());
    window.location.reload();
  });
}

const TOKEN_REFUSED =
  'The server refused this token (it changes every time the server starts). Open the address it printed, or paste the new token.';

/** One banner line at a time; the most important message wins. */
function createBanner() {
  const el = $('banner');
  return {
    show(text, kind = 'warn', actions = []) {
      el.className = `banner ${kind}`;
      setText($('banner-text'), text);
      fill(
        $('banner-actions'),
        ...actions.map(([label, fn]) => h('button', { type: 'button', class: 'btn btn-small', text: label, onclick: fn })),
      );
      el.hidden = false;
    },
    hide() {
      el.hidden = true;
    },
  };
}

function setConnection(kind, text) {
  const badge = $('conn-badge');
  badge.className = `badge ${kind}`;
  setText(badge, text);
}

/**
 * The live feed's state on the connection badge, and in the banner while it is lost.
 * @param {ReturnType<typeof createBanner>} banner
 * @returns {(state: string, detail?: string) => void}
 */
function liveStatus(banner) {
  let lostSince = null;
  return (state, detail) => {
    if (state === 'open') {
      setConnection('ok', 'Live');
      if (lostSince !== null) banner.hide();
      lostSince = null;
    } else if (state === 'lost') {
      lostSince ??= Date.now();
      setConnection('bad', 'Reconnecting…');
      banner.show(
        `Lost contact with the show server at ${clockTime(lostSince)} — ${detail}. The show keeps running on the server if it is alive.`,
        'bad',
      );
    } else if (state === 'unauthorized') {
      setConnection('bad', 'Token refused');
      forgetToken();
      askForToken(TOKEN_REFUSED);
    } else if (lostSince === null) {
      setConnection('warn', 'Connecting…');
    }
  };
}

/**
 * The desktop app's side (bridge.js): the server process's restarts in the banner, and the
 * native menu's commands.
 * @param {{ banner: ReturnType<typeof createBanner>, score: any, transport: any }} panels
 */
function wireDesktopApp({ banner, score, transport }) {
  bridge.onServerStatus((s) => {
    if (s.state === 'restarting')
      banner.show(
        `The show server stopped (${s.reason}). Restarting it in ${Math.round(s.retryInMs / 100) / 10} s (attempt ${s.attempt}).`,
        'bad',
      );
    else if (s.state === 'running' && s.restarted) banner.show('The show server is running again.', 'ok', [['Dismiss', banner.hide]]);
    else if (s.state === 'running' && s.notices?.length) banner.show(s.notices.join(' '), 'warn', [['Dismiss', banner.hide]]);
  });
  bridge.onMenuCommand((c) => {
    if (c.command === 'open-score') score.browse();
    else if (c.command === 'load-score' && c.path) score.load(c.path);
    else if (c.command === 'play-pause') transport.togglePlay();
    else if (c.command === 'stop') transport.stop();
    else if (c.command === 'jump') transport.focusJump();
  });
}

function start() {
  const token = takeToken();
  if (!token) {
    askForToken();
    return;
  }
  const api = createApi(token, {
    onUnauthorized: () => {
      forgetToken();
      askForToken(TOKEN_REFUSED);
    },
  });
  const clock = createServerClock();
  const banner = createBanner();
  const transport = createTransportPanel({ api, clock });
  const score = createScorePanel({
    api,
    bridge,
    isPlaying: () => transport.status().transport === 'playing',
    jump: (bar, beat) => api.post('/api/transport', { action: 'seek', bar, beat }).then(transport.setStatus, () => {}),
  });
  const audience = createAudiencePanel();
  const osc = createOscPanel({ api });
  const edge = createEdgePanel({ api });
  const log = createLogPanel();
  createPartsPanel({ api });
  const voices = createVoicesPanel();
  const replay = createReplayPanel({ api });
  createRecordsPanel({ api, onReplay: (record) => replay.open(record) });
  const rehearsal = createRehearsalPanel({ api, onStatus: (status) => transport.setStatus(status) });
  // What the hall sees: the show or the rehearsal screen (docs/how-to/rehearse.md#rehearsal-mode).
  const rehearsalMode = createRehearsalMode({ api });
  installShortcuts(transport);
  const editor = createEditorPanel({ api });
  installEditToggle(editor);

  const handlers = createLiveHandlers({
    api,
    clock,
    banner,
    panels: { transport, rehearsal, rehearsalMode, score, audience, osc, edge, log, voices, editor },
  });

  connectLive(token, handlers, liveStatus(banner));
  if (bridge) wireDesktopApp({ banner, score, transport });
}

start();
