// The root object of a show: the single writer. A thin shell that wires its parts and answers the
// Durable Object entry points (docs/reference/audience-protocol.md#endpoints): the publisher link accepts and
// judges the venue's frames, the stream store keeps the state and replay window in storage, the
// shard registry pushes each accepted update to the shards, the venue watch marks a silent venue
// lost, and the root's votes sum and seal the shards' counts. Viewers never talk to it directly.

import { DurableObject } from 'cloudflare:workers';
import { readConfig } from '../env/config.js';
import { edgeError, isWebSocketUpgrade } from '../http/http.js';
import { createLeanFeed } from './lean-feed.js';
import { createMediaStore } from '../media/media.js';
import { answerClose } from '../http/close-codes.js';
import { createFrameJudge } from './publisher-frames.js';
import { createPublisherLink } from './publisher-link.js';
import { createRootTallies } from './root-tallies.js';
import { createRootVotes } from './root-votes.js';
import { createShardRegistry } from './shard-registry.js';
import { identityOf } from '../env/show-identity.js';
import { createStoredVenueClock } from './stored-venue-clock.js';
import { createStreamStore } from './stream-store.js';
import { noneSnapshot } from './venue-status.js';
import { createVenueWatch } from './venue-watch.js';

export class Show extends DurableObject {
  /**
   * @param {DurableObjectState} ctx
   * @param {Env} env
   */
  constructor(ctx, env) {
    super(ctx, env);
    const config = readConfig(env);
    const { storage } = ctx;
    // Which show this root is, from its own name (show-identity.js); null: the default show.
    this.show = identityOf(ctx, 'root').show;
    this.tallies = createRootTallies();
    this.store = createStreamStore({ storage, replayLimit: config.replayLimit });
    /** The lean stream (lean-feed.js): derived here once per update, pushed beside the full one. */
    this.lean = createLeanFeed({ storage, replayLimit: config.replayLimit });
    /** Set while an action's look-ahead waits (lean-feed.js): the timer that releases it to the shards. */
    this.lookAheadTimer = /** @type {ReturnType<typeof setTimeout> | null} */ (null);
    this.lookAheadDelayMs = config.lookAheadDelayMs;
    this.judge = createFrameJudge({
      head: () => this.store.publisherHead(),
      accept: (envelope, text) => this.accept(envelope, text),
      viewers: () => this.shards.viewers(),
      counters: this.tallies.frames,
      onFrame: () => this.link.heard(),
    });
    this.link = createPublisherLink({
      ctx,
      head: () => this.store.publisherHead(),
      judge: this.judge,
      onConnect: () => this.votes.resend(),
    });
    /** The venue's clock (venue-clock.js): every time in the state is on it. */
    this.clock = createStoredVenueClock({ storage, caughtUp: () => this.link.caughtUp() });
    this.votes = createRootVotes({
      env,
      show: this.show,
      shardCount: config.shardCount,
      state: () => this.store.state(),
      now: () => this.clock.now(),
      send: (text) => this.link.broadcast(text),
    });
    this.shards = createShardRegistry({
      env,
      storage,
      show: this.show,
      clockOffset: () => this.clock.offset(),
      latest: () => ({ rev: this.store.head().rev, snapshot: this.store.snapshot(), lean: this.lean.latest() }),
      onResult: (result) => {
        this.tallies.addViewerRefusals(result?.refused);
        this.votes.taps(result?.taps);
      },
    });
    const mint = (/** @type {ReturnType<typeof noneSnapshot>} */ snapshot) => this.mint(snapshot);
    this.watch = createVenueWatch({ storage, config, link: this.link, store: this.store, mint, counters: this.tallies.frames });
    this.media = createMediaStore({ storage, limits: { fileBytes: config.mediaFileBytes, totalBytes: config.mediaTotalBytes } });
    ctx.blockConcurrencyWhile(() => this.load());
  }

  async load() {
    await this.link.load();
    await this.clock.load();
    // A restart between a prompt's close and its seal must still seal it (sealing twice is harmless).
    if (await this.store.load()) this.votes.follow();
    await this.lean.load(this.store.head(), this.store.state());
    const now = Date.now();
    // Nothing ever published: viewers get a "not started" state rather than nothing at all.
    if (this.store.head().epoch === null) this.mint(noneSnapshot(now));
    this.watch.resume(now);
    await this.shards.load();
  }

  /**
   * A publisher frame judged 'apply' (publisher-link.js): store it, then hand it to the shards.
   * @param {import('#core/protocol/envelope.js').Envelope} envelope
   * @param {string} text its bytes, forwarded to viewers unchanged (a snapshot gets the venue merged in)
   */
  accept(envelope, text) {
    if (envelope.type === 'snapshot') {
      text = this.store.applySnapshot(envelope);
      this.watch.live();
    } else {
      this.clock.observe(envelope.t);
      this.store.applyDelta(envelope, text);
    }
    this.publish(text, envelope);
  }

  /**
   * One of the root's own venue snapshots (venue-status.js), published to every viewer.
   * @param {ReturnType<typeof noneSnapshot>} snapshot
   */
  mint(snapshot) {
    this.store.mint(snapshot);
    this.publish(snapshot.text, { type: 'snapshot', epoch: snapshot.epoch, seq: snapshot.seq, t: Date.now() });
  }

  /**
   * @param {string} text the full stream's envelope
   * @param {{ type: string, epoch: string, seq: number, t: number }} envelope what the lean stream follows (lean-feed.js)
   */
  publish(text, envelope) {
    const started = this.lean.lookAheadsStarted();
    this.shards.publish(text, this.lean.follow(/** @type {any} */ (envelope), this.store.state()));
    // An action's look-ahead follows it a moment later (or with the next update: follow sends it
    // first). Each new action waits its own full moment, as at the venue (show-streams.js): the
    // timer of an earlier action, whose look-ahead follow() has just sent, must not cut it short.
    // A republish that keeps the beat (a vote's tally) leaves the running timer alone, so a flood
    // of tallies cannot hold a look-ahead back.
    if (this.lean.lookAheadsStarted() !== started) {
      this.clearLookAheadTimer();
      this.lookAheadTimer = setTimeout(() => this.releaseLookAhead(), this.lookAheadDelayMs);
    } else if (!this.lean.lookAheadWaiting()) this.clearLookAheadTimer();
    this.votes.follow();
  }

  /** The waiting look-ahead (if the next update has not already sent it) to every lean viewer. */
  releaseLookAhead() {
    this.lookAheadTimer = null;
    const lean = this.lean.releaseLookAhead();
    if (lean.length > 0) this.shards.publishLean(lean);
  }

  clearLookAheadTimer() {
    if (this.lookAheadTimer !== null) clearTimeout(this.lookAheadTimer);
    this.lookAheadTimer = null;
  }

  alarm() {
    return this.watch.alarm();
  }

  /** @param {Request} request */
  async fetch(request) {
    const { pathname } = new URL(request.url);
    // Score media: viewers read /media/<src>; the (authenticated) publisher manages /publish/media.
    if (pathname.startsWith('/media/')) {
      this.tallies.countMediaRequest(); // the Worker's cache answers the rest (media-cache.js)
      return this.media.serve(request, pathname.slice('/media/'.length));
    }
    if (pathname === '/publish/media' || pathname.startsWith('/publish/media/'))
      return this.media.publish(request, pathname.slice('/publish/media'.length));
    if (pathname !== '/publish') return edgeError('NOT_FOUND', { message: `no route ${pathname}` });
    this.link.learnAddress(request);
    if (isWebSocketUpgrade(request)) return this.link.connect();
    if (request.method === 'POST') return this.judge.publishOnce(request);
    return edgeError('UPGRADE_REQUIRED', { message: 'publish with a WebSocket upgrade or a POST of one envelope' });
  }

  /**
   * @param {WebSocket} ws
   * @param {string | ArrayBuffer} message
   */
  webSocketMessage(ws, message) {
    this.link.message(ws, message);
  }

  /**
   * @param {WebSocket} ws
   * @param {number} code
   * @param {string} reason
   */
  webSocketClose(ws, code, reason) {
    this.link.closed(ws); // the lost timer starts now (the alarm is already set while live)
    answerClose(ws, code, reason);
  }

  // ---- RPC for shards and the Worker ----

  /**
   * A shard that got its first viewer registers for pushes and gets the current snapshots.
   * @param {number} index
   * @param {number} viewers
   */
  attach(index, viewers = 0) {
    const gen = this.shards.attach(index, viewers);
    const lean = this.lean.latest();
    const { rev } = this.store.head();
    return { gen, rev, snapshot: this.store.snapshot(), leanRev: lean.rev, leanSnapshot: lean.snapshot, clockOffset: this.clock.offset() };
  }

  /** RPC for the Worker (venue-address.js): the venue's public address, '' before any publisher. */
  publisherAddress() {
    return this.link.address();
  }

  /**
   * RPC from the Worker: requests it refused for this show since its isolate's last report
   * (refusal-counter.js; at most one report per isolate per second).
   * @param {unknown} counts
   */
  countRequestRefusals(counts) {
    this.tallies.addRequestRefusals(counts);
  }

  /**
   * What the Worker's SSE/poll cache needs (stream-store.js, lean-feed.js), with the venue's status and clock.
   * @param {string | null} epoch
   * @param {number | null} seq
   * @param {'full' | 'lean'} [stream] which stream (docs/reference/audience-protocol.md#endpoints)
   */
  feed(epoch, seq, stream = 'full') {
    const reply = stream === 'lean' ? this.lean.feed(epoch, seq) : this.store.feed(epoch, seq);
    return { ...reply, venue: this.store.venue(), clockOffset: this.clock.offset() };
  }

  /** RPC for owner shards (votes.js): the prompt open in the venue's state, or null. */
  currentVote() {
    return this.votes.currentVote();
  }

  /**
   * RPC from an owner shard: its totals for the open prompt (root-votes.js).
   * @param {number} index
   * @param {string} key
   * @param {number[]} counts
   * @param {number} total
   */
  voteTotals(index, key, counts, total) {
    return this.votes.report(index, key, counts, total);
  }

  /** For /healthz?deep=1 (docs/explanation/edge-design.md names each field where it describes it). */
  stats() {
    const parts = { votes: this.votes.stats(), lean: this.lean.stats(), venueClock: this.clock.stats() };
    return { show: this.show, ...this.store.stats(), ...this.link.stats(), ...this.shards.stats(), ...this.tallies.stats(), ...parts };
  }
}
