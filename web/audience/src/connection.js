// Keeps the page connected to the state stream: runs the current transport, probes a better one,
// feeds every envelope to the stream tracker (connection-events.js), keeps the clock synced (WS
// pings or GET time: connection-clock.js), and recovers by itself from drops, gaps, new epochs
// and sleep.

import { createTransportPolicy } from '#core/client/transport-policy.js';
import { pageNow } from './page-clock.js';
import { openLive, supportedTransports } from './transports/open-transport.js';
import { createConnectionClock } from './connection-clock.js';
import { createConnectionEvents } from './connection-events.js';

const PROBE_CHECK_MS = 5000;

/**
 * @param {object} options
 * @param {string} options.base page URL every endpoint is resolved against (relative URLs only)
 * @param {import('#core/client/stream-tracker.js').StreamTracker} options.tracker
 * @param {import('#core/client/clock-sync.js').ClockSync} options.clock
 * @param {(envelope: any, outcome: import('#core/client/stream-tracker.js').TrackOutcome, receivedAt: number) => void} options.onApplied
 * @param {() => void} options.onClock a clock sample arrived
 * @param {() => void} options.onStatus connection status changed
 * @param {number} [options.betterRetryMs]
 * @param {string[]} [options.order]
 * @param {'full' | 'lean'} [options.stream] which state stream to ask for (docs/reference/audience-protocol.md#endpoints)
 * @param {(reply: unknown) => void} [options.onVoted] the answer to a vote sent on the WebSocket
 */
export function createConnection({
  base,
  tracker,
  clock,
  onApplied,
  onClock,
  onStatus,
  betterRetryMs,
  order,
  stream = 'full',
  onVoted = () => {},
}) {
  const policy = createTransportPolicy({ order: supportedTransports(order), betterRetryMs, now: pageNow() });
  /** @type {import('./connection-events.js').Links} */
  const links = { current: null, probe: null, retryTimer: null, resyncTimer: null, lastError: '' };
  const log = [];
  const note = (what) => {
    log.push({ at: pageNow(), what });
    if (log.length > 200) log.shift();
  };
  const pings = createConnectionClock({
    base,
    clock,
    onClock,
    current: () => links.current,
    drop: (live, reason) => {
      live.handle.close();
      events.handleClose(live, reason);
    },
  });
  const events = createConnectionEvents({ links, tracker, policy, pings, onApplied, onStatus, note, connect });

  /** The resume point a reconnecting SSE/poll transport may ask for. */
  const cursor = () =>
    tracker.state() && !tracker.needsResync() ? { since: tracker.seq(), epoch: /** @type {string} */ (tracker.epoch()) } : null;

  function open(name, asProbe) {
    const live = openLive({
      name,
      base,
      stream,
      cursor,
      events: (opened) => ({
        onOpen: () => onStatus(),
        onEnvelope: (env, r) => events.handleEnvelope(opened, env, r),
        onPong: pings.pong,
        onClose: (reason) => events.handleClose(opened, reason),
        onVoted,
      }),
      onClose: events.handleClose,
    });
    note(`${asProbe ? 'probe' : 'connect'} ${name}`);
    return live;
  }

  function connect(name) {
    clearTimeout(links.retryTimer);
    links.retryTimer = null;
    links.current = open(name, false);
    pings.fresh();
    onStatus();
  }

  function probeLoop() {
    if (links.current && links.current.gotState && !links.probe) {
      const name = policy.probe(pageNow());
      if (name) links.probe = open(name, true);
    }
    setTimeout(probeLoop, PROBE_CHECK_MS);
  }

  return {
    start() {
      connect(policy.current());
      pings.restart();
      setTimeout(probeLoop, PROBE_CHECK_MS);
    },
    /** Back from background/sleep/offline: distrust the clock and the copy, get fresh ones now. */
    resume(why) {
      note(`resume (${why})`);
      clock.invalidate();
      pings.restart();
      tracker.requestResync();
      const { current } = links;
      if (current && current.handle.isOpen()) events.askResync(current);
      // Waiting out a backoff (or checking reachability): the network may be back, try now.
      else if (!current) connect(policy.current());
    },
    /**
     * Send a frame on the current WebSocket (a vote); false when the page is on SSE or polling.
     * @param {object} frame
     */
    sendOnSocket(frame) {
      const { current } = links;
      if (!current || current.name !== 'ws' || !current.handle.isOpen()) return false;
      current.handle.send(frame);
      return true;
    },
    status: () => ({
      transport: links.current ? links.current.name : null,
      live: Boolean(links.current && links.current.gotState),
      probing: links.probe ? links.probe.name : null,
      error: links.lastError,
      policy: policy.status(),
    }),
    log: () => [...log],
  };
}
