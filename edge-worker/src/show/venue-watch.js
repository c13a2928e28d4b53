// Whether the venue is still there (docs/reference/publisher-protocol.md#venue-status; venue-status.js for what viewers
// see): while it is live the root's alarm runs every VENUE_LOST_MS at most and looks at the
// publisher's last sign of life. The WebSocket close may never come (a pulled cable, a killed
// machine): silence is what counts. A silent venue is marked lost; a show lost for
// VENUE_EXPIRE_MS is over ("none").

import { PublisherClose } from '#core/protocol/publisher.js';
import { lostSnapshot, noneSnapshot } from './venue-status.js';

/**
 * @param {object} options
 * @param {DurableObjectStorage} options.storage the root's storage (its alarm)
 * @param {{ venueLostMs: number, venueExpireMs: number }} options.config
 * @param {{ lastHeard: () => number, lastHeardAt: () => number, heardNowIfAlone: () => void,
 *   closeAll: (code: number, reason: string) => void }} options.link publisher-link.js
 * @param {ReturnType<typeof import('./stream-store.js').createStreamStore>} options.store
 * @param {(snapshot: ReturnType<typeof noneSnapshot>) => void} options.mint publish one of the root's own venue snapshots
 * @param {{ venueLost: number }} options.counters
 */
export function createVenueWatch({ storage, config, link, store, mint, counters }) {
  return {
    /**
     * After a wake-up nobody is connected yet: the publisher gets VENUE_LOST_MS to come back
     * before its show is marked lost (a stale "live" must not survive a restart).
     * @param {number} now
     */
    resume(now) {
      link.heardNowIfAlone();
      if (store.venue().status !== 'none') void storage.setAlarm(now + config.venueLostMs);
    },

    /** The publisher's snapshot made the venue live: watch from its last frame. */
    live() {
      void storage.setAlarm(link.lastHeardAt() + config.venueLostMs);
    },

    /** The root's alarm. */
    async alarm() {
      const now = Date.now();
      const venue = store.venue();
      if (venue.status === 'live') {
        const heard = link.lastHeard();
        if (now - heard < config.venueLostMs) {
          await storage.setAlarm(heard + config.venueLostMs);
          return;
        }
        link.closeAll(PublisherClose.SILENT, `no sign of life for ${config.venueLostMs} ms`);
        counters.venueLost += 1;
        mint(lostSnapshot(store.head(), store.state(), now));
        await storage.setAlarm(now + config.venueExpireMs);
      } else if (venue.status === 'lost') {
        if (now - venue.since >= config.venueExpireMs) mint(noneSnapshot(now));
        else await storage.setAlarm(venue.since + config.venueExpireMs);
      }
    },
  };
}
