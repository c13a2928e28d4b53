// The switchable mirror to the edge worker: the console can turn it on and off at run time
// (URL + token), `--edge` turns it on at start. The uplink itself (connection, backoff,
// catch-up) lives in ./edge/uplink.js; copying the score's media to the edge lives in
// ./edge/media-sync.js and runs whenever the uplink (re)connects or a score is loaded.

import { EventEmitter } from 'node:events';
import { startEdgeGauges } from './edge-gauges.js';
import { createEdgeUplink } from './uplink.js';
import { createMediaSync } from './media-sync.js';
import { createVenueProbe } from './venue-probe.js';

/**
 * @typedef {import('./media-sync.js').MediaSource} MediaSource
 * @typedef {object} EdgeMirrorEvents what `mirror.events` emits (docs/explanation/architecture.md#listening)
 * @property {{ key: string, counts: number[], total: number, final?: boolean }} votes the edge's vote totals (docs/reference/audience-protocol.md#audience-voices)
 * @property {number} taps reaction taps the edge's viewers sent since its last report
 */

/**
 * @param {object} options
 * @param {any} options.stream the show's state stream
 * @param {import('node:events').EventEmitter} options.events the show's events: every `envelope` is published, a `score` load syncs the media
 * @param {import('../logs/log.js').Log} options.log
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {(() => MediaSource | null) | null} [options.media] the current score's folder and assets; without it no media is uploaded
 */
export function createEdgeMirror({ stream, events, log, metrics, media = null }) {
  /** @type {any} */
  let uplink = null;
  /** @type {import('./media-sync.js').MediaSync | null} */
  let mediaSync = null;
  /** @type {ReturnType<typeof import('./venue-probe.js').createVenueProbe> | null} */
  let venueProbe = null;
  let mediaSource = media;
  /** The edge's votes and taps for the vote desk and the reaction meter (EdgeMirrorEvents). */
  const mirrorEvents = new EventEmitter();
  let url = null;
  /** @param {string | null} text */
  const redact = (text) => (typeof text === 'string' ? log.redact(text) : text);
  const stopGauges = startEdgeGauges({ metrics, uplink: () => uplink?.status() ?? null, venue: () => venueProbe?.status().status ?? null });

  events.on('envelope', (/** @type {string} */ json) => uplink?.publish(json));
  // Another score: compare its media with the edge (a (re)connect does the same, see onStatus).
  events.on('score', () => mediaSync?.trigger());
  // An edit applied while playing may add media (docs/reference/score-editing-api.md#apply-while-playing).
  events.on('edited', () => mediaSync?.trigger());

  return {
    /**
     * Start mirroring to `edgeUrl` (replacing any previous link).
     * @param {string} edgeUrl
     * @param {string} token
     */
    async enable(edgeUrl, token) {
      this.disable();
      url = edgeUrl.replace(/\/+$/, '');
      const sync = createMediaSync({ url, token, source: () => mediaSource?.() ?? null, log });
      mediaSync = sync;
      let connected = false;
      uplink = createEdgeUplink({
        url,
        token,
        stream,
        log,
        onStatus: (s) => {
          if (s.connected && !connected) sync.trigger();
          connected = s.connected;
        },
        onVotes: (report) => mirrorEvents.emit('votes', report),
        onTaps: (n) => mirrorEvents.emit('taps', n),
      });
      venueProbe = createVenueProbe({ url });
      log.info(`edge mirror on: ${url}`);
    },
    disable() {
      if (!uplink) return;
      uplink.close();
      uplink = null;
      mediaSync?.close();
      mediaSync = null;
      venueProbe?.close();
      venueProbe = null;
      log.info(`edge mirror off: ${url}`);
      url = null;
    },
    /**
     * Publish again after another venue server replaced this one (the operator's call: the
     * other one is replaced in turn). False when the mirror is off or was not replaced.
     */
    resume() {
      const resumed = uplink?.resume() ?? false;
      if (resumed) mediaSync?.trigger();
      return resumed;
    },
    /** `votes` and `taps` from the edge (EdgeMirrorEvents): subscribe with events.on, leave with events.off. */
    events: mirrorEvents,
    /**
     * Where the current score's media is (when not given at creation); compares with the edge.
     * @param {(() => MediaSource | null) | null} provider
     */
    setMedia(provider) {
      mediaSource = provider;
      mediaSync?.trigger();
    },
    /** Compare the media with the edge again (files the venue made, such as engraved pages, are ready). */
    syncMedia: () => mediaSync?.trigger(),
    /** Resolves once no media upload pass is running (tests). */
    mediaIdle: () => mediaSync?.whenIdle() ?? Promise.resolve(),
    /** Public URL viewers are sent to on overflow (null when the mirror is off). */
    publicUrl: () => url,
    // venue: what the edge tells remote viewers about the show (its /healthz), see edge/venue-probe.js.
    // An error's text can echo what the edge was sent (its Authorization header): it passes the
    // log's redactor, as a log line does (secrets.js), before the console or /api/status shows it.
    status: () => {
      if (!uplink) return { enabled: false };
      const link = uplink.status();
      const media = mediaSync?.status() ?? null;
      return {
        enabled: true,
        ...link,
        lastError: redact(link.lastError),
        media: media && { ...media, lastError: redact(media.lastError) },
        venue: venueProbe?.status() ?? null,
      };
    },
    close() {
      stopGauges();
      this.disable();
    },
  };
}
