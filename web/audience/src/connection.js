// Keeps the page connected to the state stream: runs the current transport, probes a better one,
// feeds every envelope to the stream tracker, keeps the clock synced (WS pings or GET time), and
// recovers by itself from drops, gaps, new epochs and sleep.

import { createTransportPolicy } from '#core/client/transport-policy.js';
import { pageNow } from './page-clock.js';
import { openWebSocket } from './transports/ws-transport.js';
import { openEventSource } from './transports/sse-transport.js';
import { openPolling } from './transports/poll-transport.js';

const OPENERS = { ws: openWebSocket, sse: openEventSource, poll: openPolling };
/** A transport that connects but delivers no valid state this long has failed. */
const SILENCE_MS = 8000;
/** A resync request unanswered this long means the connection is not really there. */
const RESYNC_TIMEOUT_MS = 5000;
/** WebSocket pongs missing this long (while we ping): a half-open socket, e.g. after an AP hop. */
const PONG_TIMEOUT_MS = 12_000;
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
  const supported = (order ?? ['ws', 'sse', 'poll']).filter(
    (n) => (n === 'ws' && 'WebSocket' in window) || (n === 'sse' && 'EventSource' in window) || n === 'poll',
  );
  const policy = createTransportPolicy({ order: supported, betterRetryMs, now: pageNow() });
  /** @typedef {{ name: string, handle: any, gotState: boolean, silence: any }} Live */
  /** @type {Live | null} */
  let current = null;
  /** @type {Live | null} */
  let probe = null;
  let retryTimer = null;
  let resyncTimer = null;
  let pingTimer = null;
  let lastPongAt = pageNow();
  let lastPingAt = 0;
  let lastError = '';
  const log = [];

  const note = (what) => {
    log.push({ at: pageNow(), what });
    if (log.length > 200) log.shift();
  };

  /** The resume point a reconnecting SSE/poll transport may ask for. */
  const cursor = () =>
    tracker.state() && !tracker.needsResync() ? { since: tracker.seq(), epoch: /** @type {string} */ (tracker.epoch()) } : null;

  function open(name, asProbe) {
    /** @type {Live} */
    const live = { name, handle: null, gotState: false, silence: null };
    live.handle = OPENERS[name]({
      base,
      stream,
      cursor,
      events: {
        onOpen: () => onStatus(),
        onEnvelope: (env, r) => handleEnvelope(live, env, r),
        onPong: (pong, r) => {
          if (clock.pong(pong, r)) {
            lastPongAt = r;
            onClock();
          }
        },
        onClose: (reason) => handleClose(live, reason),
        onVoted,
      },
    });
    live.silence = setTimeout(() => {
      live.handle.close();
      handleClose(live, `${name}: no state within ${SILENCE_MS / 1000} s`);
    }, SILENCE_MS);
    note(`${asProbe ? 'probe' : 'connect'} ${name}`);
    return live;
  }

  function connect(name) {
    clearTimeout(retryTimer);
    retryTimer = null;
    current = open(name, false);
    lastPongAt = pageNow();
    onStatus();
  }

  function handleEnvelope(live, env, r) {
    if (live !== current && live !== probe) return;
    const outcome = tracker.accept(env);
    if (outcome.result === 'invalid') return;
    if (!live.gotState && outcome.result !== 'resync') {
      live.gotState = true;
      clearTimeout(live.silence);
      if (live === current) {
        policy.succeeded();
        lastError = '';
      } else promote(live);
      onStatus();
    }
    if (outcome.result === 'applied') {
      if (!tracker.needsResync()) clearTimeout(resyncTimer);
      onApplied(env, outcome, r);
    } else if (outcome.result === 'resync') {
      note(`resync (${outcome.reason}) via ${live.name}`);
      askResync(live);
    }
  }

  function askResync(live) {
    live.handle.resync();
    clearTimeout(resyncTimer);
    resyncTimer = setTimeout(() => {
      if (!tracker.needsResync() || live !== current) return;
      live.handle.close();
      handleClose(live, 'resync unanswered');
    }, RESYNC_TIMEOUT_MS);
  }

  function promote(live) {
    const old = current;
    current = live;
    probe = null;
    policy.probeResult(live.name, true, pageNow());
    note(`switched to ${live.name}`);
    if (old) {
      clearTimeout(old.silence);
      old.handle.close();
    }
    lastPongAt = pageNow();
    onStatus();
  }

  /** Is the server there at all? Answers by fetching GET time (which also feeds the clock). */
  async function reachable() {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 2500);
    try {
      return await sampleTime(controller.signal);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  async function handleClose(live, reason) {
    clearTimeout(live.silence);
    if (live === probe) {
      probe = null;
      policy.probeResult(live.name, false, pageNow());
      note(`probe ${live.name} failed: ${reason}`);
      return;
    }
    if (live !== current) return;
    current = null;
    lastError = reason;
    note(reason);
    onStatus();
    const serverReachable = await reachable();
    if (current || retryTimer) return; // resumed meanwhile
    const decision = policy.failed({ now: pageNow(), serverReachable });
    if (decision.switched) note(`giving up on ${live.name} for ${decision.transport}`);
    retryTimer = setTimeout(() => connect(decision.transport), decision.delay);
    onStatus();
  }

  async function sampleTime(signal) {
    const c = pageNow();
    const res = await fetch(new URL('time', base), { cache: 'no-store', signal });
    const r = pageNow();
    if (!res.ok) return false;
    const body = await res.json();
    if (clock.addSample({ c, s: body.s, r })) onClock();
    return true;
  }

  /** Clock pings: over the WebSocket when we have one, else GET time (a little slower). */
  async function pingLoop() {
    const ws = current && current.handle.canPing && current.handle.isOpen() ? current : null;
    const t = pageNow();
    if (ws) {
      if (lastPingAt > lastPongAt && t - lastPongAt > PONG_TIMEOUT_MS) {
        ws.handle.close();
        handleClose(ws, 'no pong: connection lost');
      } else {
        ws.handle.send({ type: 'ping', ...clock.ping(t) });
        lastPingAt = t;
      }
    } else if (current) {
      try {
        await sampleTime(AbortSignal.timeout(5000));
      } catch {
        // The transport reports its own failures; a missed sample only delays sync.
      }
    }
    const delay = ws ? clock.nextDelay() : Math.max(250, clock.nextDelay() * 2);
    pingTimer = setTimeout(pingLoop, delay);
  }

  function probeLoop() {
    if (current && current.gotState && !probe) {
      const name = policy.probe(pageNow());
      if (name) probe = open(name, true);
    }
    setTimeout(probeLoop, PROBE_CHECK_MS);
  }

  return {
    start() {
      connect(policy.current());
      pingTimer = setTimeout(pingLoop, 0);
      setTimeout(probeLoop, PROBE_CHECK_MS);
    },
    /** Back from background/sleep/offline: distrust the clock and the copy, get fresh ones now. */
    resume(why) {
      note(`resume (${why})`);
      clock.invalidate();
      clearTimeout(pingTimer);
      pingTimer = setTimeout(pingLoop, 0);
      tracker.requestResync();
      if (current && current.handle.isOpen()) askResync(current);
      // Waiting out a backoff (or checking reachability): the network may be back, try now.
      else if (!current) connect(policy.current());
    },
    /**
     * Send a frame on the current WebSocket (a vote); false when the page is on SSE or polling.
     * @param {object} frame
     */
    sendOnSocket(frame) {
      if (!current || current.name !== 'ws' || !current.handle.isOpen()) return false;
      current.handle.send(frame);
      return true;
    },
    status: () => ({
      transport: current ? current.name : null,
      live: Boolean(current && current.gotState),
      probing: probe ? probe.name : null,
      error: lastError,
      policy: policy.status(),
    }),
    log: () => [...log],
  };
}
