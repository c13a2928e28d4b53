// What a transport's envelopes and closes do to the connection (connection.js): the first valid
// state makes a transport live (or promotes a probe over the current one), a gap asks for a
// resync, and a close of the current transport schedules the policy's next attempt.

import { pageNow } from './page-clock.js';

/** A resync request unanswered this long means the connection is not really there. */
const RESYNC_TIMEOUT_MS = 5000;

/** @typedef {import('./transports/open-transport.js').Live} Live */

/**
 * The connection's transports, shared by connection.js and the handlers below.
 * @typedef {object} Links
 * @property {Live | null} current the transport the page runs on
 * @property {Live | null} probe a better transport being tried
 * @property {any} retryTimer the next attempt after a failure
 * @property {any} resyncTimer the deadline of a resync request
 * @property {string} lastError why the last transport closed ('' once one works)
 */

/**
 * @param {object} deps
 * @param {Links} deps.links
 * @param {import('#core/client/stream-tracker.js').StreamTracker} deps.tracker
 * @param {ReturnType<typeof import('#core/client/transport-policy.js').createTransportPolicy>} deps.policy
 * @param {{ fresh: () => void, reachable: () => Promise<boolean> }} deps.pings the clock pings (connection-clock.js)
 * @param {(envelope: any, outcome: import('#core/client/stream-tracker.js').TrackOutcome, receivedAt: number) => void} deps.onApplied
 * @param {() => void} deps.onStatus
 * @param {(what: string) => void} deps.note one line in the connection's log
 * @param {(name: string) => void} deps.connect open `name` as the current transport
 */
export function createConnectionEvents({ links, tracker, policy, pings, onApplied, onStatus, note, connect }) {
  function handleEnvelope(live, env, r) {
    if (live !== links.current && live !== links.probe) return;
    const outcome = tracker.accept(env);
    if (outcome.result === 'invalid') return;
    if (!live.gotState && outcome.result !== 'resync') {
      live.gotState = true;
      clearTimeout(live.silence);
      if (live === links.current) {
        policy.succeeded();
        links.lastError = '';
      } else promote(live);
      onStatus();
    }
    if (outcome.result === 'applied') {
      if (!tracker.needsResync()) clearTimeout(links.resyncTimer);
      onApplied(env, outcome, r);
    } else if (outcome.result === 'resync') {
      note(`resync (${outcome.reason}) via ${live.name}`);
      askResync(live);
    }
  }

  function askResync(live) {
    live.handle.resync();
    clearTimeout(links.resyncTimer);
    links.resyncTimer = setTimeout(() => {
      if (!tracker.needsResync() || live !== links.current) return;
      live.handle.close();
      handleClose(live, 'resync unanswered');
    }, RESYNC_TIMEOUT_MS);
  }

  function promote(live) {
    const old = links.current;
    links.current = live;
    links.probe = null;
    policy.probeResult(live.name, true, pageNow());
    note(`switched to ${live.name}`);
    if (old) {
      clearTimeout(old.silence);
      old.handle.close();
    }
    pings.fresh();
    onStatus();
  }

  async function handleClose(live, reason) {
    clearTimeout(live.silence);
    if (live === links.probe) {
      links.probe = null;
      policy.probeResult(live.name, false, pageNow());
      note(`probe ${live.name} failed: ${reason}`);
      return;
    }
    if (live !== links.current) return;
    links.current = null;
    links.lastError = reason;
    note(reason);
    onStatus();
    const serverReachable = await pings.reachable();
    if (links.current || links.retryTimer) return; // resumed meanwhile
    const decision = policy.failed({ now: pageNow(), serverReachable });
    if (decision.switched) note(`giving up on ${live.name} for ${decision.transport}`);
    links.retryTimer = setTimeout(() => connect(decision.transport), decision.delay);
    onStatus();
  }

  return { handleEnvelope, askResync, handleClose };
}
