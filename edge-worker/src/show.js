// The root object of a show: the single writer. It accepts the publisher (the venue's local
// server), checks that every frame continues the stream, keeps the latest state and a replay
// window in storage (so it survives eviction, restarts and deploys), and hands each accepted
// update to the shard lanes. Viewers never talk to it directly.

import { DurableObject } from 'cloudflare:workers';
import { createEnvelope } from '#core/protocol/envelope.js';
import { applyMergePatch } from '#core/protocol/merge-patch.js';
import { ALIVE_EVERY_MS, ALIVE_FRAME, PublisherClose } from '#core/protocol/publisher.js';
import { deltasAfter } from '#core/stream/catch-up.js';
import { MAX_PUBLISH_FRAME_BYTES, readConfig } from './config.js';
import { createFanout } from './fanout.js';
import { isWebSocketUpgrade, json, jsonError } from './http.js';
import { createLeanFeed } from './lean-feed.js';
import { createMediaStore } from './media.js';
import { clientAddress } from './client-address.js';
import { answerClose } from './close-codes.js';
import { readBodyLimited } from './body-limit.js';
import { judgeFrame } from './publish-rules.js';
import { createRequestRefusalTally } from './refusal-counter.js';
import { isShowKey, showFromRequest } from './show-identity.js';
import { shardStub } from './stubs.js';
import { liveVenue, lostSnapshot, noneSnapshot, venueOf, withVenue } from './venue-status.js';
import { createVenueClock } from './venue-clock.js';
import { createVoteSeal } from './vote-seal.js';
import { createVoteTotals, promptOf, sumCounts } from './votes.js';

const PUBLISHER_TAG = 'publisher';
const DELTA_PREFIX = 'd:';
// Close codes and the alive frame are the publisher protocol's (core/protocol/publisher.js); the
// alarm reads when the alive frame was last answered (README.md, "Venue status").
const { REPLACED, SILENT } = PublisherClose;
/**
 * Frames a publisher sends this soon after connecting are its catch-up (a snapshot or replayed
 * deltas, made earlier): their `t` says nothing about the venue's clock (venue-clock.js).
 */
const CATCH_UP_MS = 1000;
/** The venue clock's offset is stored again when it moved this much (ms). */
const CLOCK_SAVE_STEP_MS = 5;

/* global WebSocketRequestResponsePair */

/** @param {number} seq */
const deltaKey = (seq) => `${DELTA_PREFIX}${String(seq).padStart(16, '0')}`;

export class Show extends DurableObject {
  /**
   * @param {DurableObjectState} ctx
   * @param {Env} env
   */
  constructor(ctx, env) {
    super(ctx, env);
    this.config = readConfig(env);
    /** minted: the head is the root's own venue snapshot (lost/none), not the publisher's */
    /** @type {{ epoch: string | null, seq: number | null, rev: number, minted?: boolean }} */
    this.head = { epoch: null, seq: null, rev: 0, minted: false };
    /** Last time a publisher frame, connect or close was seen (ms); 0 after a wake-up. */
    this.lastHeardAt = 0;
    /** @type {string | null} which show this root is (show-identity.js); null: the default show */
    this.showName = null;
    /** The address the publisher last connected from: the venue's public address (venue-address.js). */
    this.venueAddress = '';
    /** Viewers' media requests that reached this root (since it started). */
    this.mediaRequests = 0;
    /** @type {Record<string, unknown> | null} */
    this.state = null;
    /** @type {{ seq: number, json: string }[]} serialized deltas, oldest first */
    this.replay = [];
    /** @type {string | null} */
    this.snapshotJson = null;
    /** @type {Map<number, number>} shard index → attach generation (persisted) */
    this.shards = new Map();
    this.nextGen = 1;
    this.counters = { accepted: 0, noop: 0, resync: 0, badFrame: 0, tooBig: 0, stale: 0, venueLost: 0 };
    /** Viewer frames the shards refused (viewer-rules.js), as they report them on each push. */
    this.viewerRefused = { flood: 0, oversize: 0, binary: 0, frame: 0, resync_ignored: 0, vote: 0 };
    /** Viewer requests the Worker refused (refusal-counter.js), as its isolates report them. */
    this.requestRefusals = createRequestRefusalTally();
    /** The edge's votes (votes.js): every owner shard's totals, summed and sent to the publisher. */
    this.edgeVotes = createVoteTotals({
      send: (text) => {
        for (const ws of this.ctx.getWebSockets(PUBLISHER_TAG)) {
          try {
            ws.send(text);
          } catch {
            // a closing publisher; the next one gets the next totals
          }
        }
      },
    });
    /** The venue's clock (venue-clock.js): every time in the state is on it. */
    this.venueClock = createVenueClock();
    this.savedClockOffset = 0;
    /** Each prompt's exact final count, taken once the shards stop accepting votes for it (vote-seal.js). */
    this.voteSeal = createVoteSeal({
      now: () => this.venueClock.now(),
      collect: (key) => this.collectVotes(key),
      publish: (result) => this.edgeVotes.final(result),
      warn: (message) => console.warn(message),
    });
    /** The lean stream (lean-feed.js): derived here once per update, pushed beside the full one. */
    this.lean = createLeanFeed({ storage: ctx.storage, replayLimit: this.config.replayLimit });
    this.fanout = createFanout({
      send: async (index, batch) => {
        const result = await shardStub(env, index, this.showName).push({ ...batch, clockOffset: this.venueClock.offset() }, this.showName);
        for (const [kind, n] of Object.entries(result?.refused ?? {}))
          if (kind in this.viewerRefused && Number.isFinite(n)) this.viewerRefused[kind] += n;
        if (Number.isSafeInteger(result?.taps) && result.taps > 0) this.edgeVotes.taps(result.taps);
        return result;
      },
      latest: () => ({ rev: this.head.rev, snapshot: this.snapshotJson, lean: this.lean.latest() }),
      onEmpty: (index, gen) => {
        if (this.shards.get(index) === gen) {
          this.shards.delete(index);
          this.saveShards();
        }
      },
      warn: (message) => console.warn(message),
    });
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(ALIVE_FRAME, ALIVE_FRAME));
    this.media = createMediaStore({
      storage: ctx.storage,
      limits: { fileBytes: this.config.mediaFileBytes, totalBytes: this.config.mediaTotalBytes },
    });
    ctx.blockConcurrencyWhile(() => this.load());
  }

  async load() {
    const storage = this.ctx.storage;
    // A named show's root must know its name before it pushes to shards (an alarm may do so).
    const stored = await storage.get('showName');
    if (isShowKey(stored ?? null)) this.showName = /** @type {string | null} */ (stored ?? null);
    const venueAddress = await storage.get('venueAddress');
    if (typeof venueAddress === 'string') this.venueAddress = venueAddress;
    const clockOffset = await storage.get('venueClockOffset');
    this.venueClock.seed(clockOffset);
    this.savedClockOffset = this.venueClock.offset();
    const meta = /** @type {any} */ (await storage.get('meta'));
    if (meta && typeof meta.epoch === 'string') {
      this.head = { epoch: meta.epoch, seq: meta.seq, rev: meta.rev ?? 0, minted: meta.minted === true };
      this.state = (await storage.get('state')) ?? {};
      const deltas = await storage.list({ prefix: DELTA_PREFIX });
      this.replay = /** @type {{ seq: number, json: string }[]} */ ([...deltas.values()]);
      // Keep only a window that really chains up to the head.
      const last = this.replay.at(-1);
      if (!last || last.seq !== this.head.seq) this.replay = [];
      this.snapshotJson = this.makeSnapshot();
      // A restart between a prompt's close and its seal must still seal it (sealing twice is harmless).
      this.voteSeal.follow(promptOf(this.state));
    }
    await this.lean.load(this.head, this.state);
    const now = Date.now();
    // Nothing ever published: viewers get a "not started" state rather than nothing at all.
    if (this.head.epoch === null) this.publishMinted(noneSnapshot(now));
    // After a restart nobody is connected yet: the publisher gets VENUE_LOST_MS to come back
    // before its show is marked lost (a stale "live" must not survive a restart).
    if (this.ctx.getWebSockets(PUBLISHER_TAG).length === 0) this.lastHeardAt = now;
    if (venueOf(this.state).status !== 'none') void storage.setAlarm(now + this.config.venueLostMs);
    const shards = /** @type {any} */ (await storage.get('shards'));
    if (shards) {
      this.nextGen = shards.nextGen;
      for (const [index, gen] of shards.list) {
        this.shards.set(index, gen);
        this.fanout.attach(index, gen);
      }
    }
  }

  makeSnapshot() {
    if (this.head.epoch === null || this.head.seq === null) return null;
    return JSON.stringify(createEnvelope('snapshot', this.head.epoch, this.head.seq, Date.now(), this.state ?? {}));
  }

  /**
   * Learn (once) which show this root is, from the Worker's header or a shard's attach.
   * @param {string | null} show
   */
  learnShow(show) {
    if (show === null || !isShowKey(show) || show === this.showName) return;
    this.showName = show;
    void this.ctx.storage.put('showName', show);
  }

  /**
   * The publisher's address (the Worker only forwards authenticated /publish requests here).
   * @param {Request} request
   */
  learnVenueAddress(request) {
    const address = clientAddress(request);
    if (address === this.venueAddress) return;
    this.venueAddress = address;
    void this.ctx.storage.put('venueAddress', address);
  }

  /** RPC for the Worker (venue-address.js): the venue's public address, '' before any publisher. */
  publisherAddress() {
    return this.venueAddress;
  }

  saveShards() {
    void this.ctx.storage.put('shards', { nextGen: this.nextGen, list: [...this.shards] });
  }

  /**
   * Check and apply one publisher frame; returns the reply for the publisher.
   * Synchronous on purpose: storage writes are queued, and the output gate holds the reply and
   * the pushes to shards until they are durable.
   * @param {string} text
   */
  handleFrame(text) {
    this.lastHeardAt = Date.now();
    const verdict = judgeFrame(this.publisherHead(), text, MAX_PUBLISH_FRAME_BYTES);
    switch (verdict.kind) {
      case 'error':
        if (verdict.code === 'TOO_BIG') this.counters.tooBig += 1;
        else if (verdict.code === 'STALE') this.counters.stale += 1;
        else this.counters.badFrame += 1;
        return { type: 'error', code: verdict.code, message: verdict.message };
      case 'resync':
        this.counters.resync += 1;
        return { type: 'resync', reason: verdict.reason, ...this.publisherHead() };
      case 'noop':
        this.counters.noop += 1;
        return this.ack();
      default:
        this.apply(verdict.envelope, text);
        return this.ack();
    }
  }

  ack() {
    return { type: 'ack', ...this.publisherHead(), viewers: this.fanout.viewers() };
  }

  /**
   * Where the publisher's stream stands. The root's own venue snapshots are not part of it: after
   * one, the publisher must start again with a snapshot, as on a fresh edge.
   * @returns {{ epoch: string | null, seq: number | null }}
   */
  publisherHead() {
    return this.head.minted ? { epoch: null, seq: null } : { epoch: this.head.epoch, seq: this.head.seq };
  }

  /**
   * @param {import('#core/protocol/envelope.js').Envelope} envelope a frame judged 'apply'
   * @param {string} text its bytes, forwarded to viewers unchanged
   */
  apply(envelope, text) {
    const storage = this.ctx.storage;
    this.counters.accepted += 1;
    this.head = { epoch: envelope.epoch, seq: envelope.seq, rev: this.head.rev + 1, minted: false };
    if (envelope.type === 'snapshot') {
      // Every viewer learns that the venue is live from the snapshot itself.
      const venue = liveVenue(this.state, Date.now());
      const merged = withVenue(envelope, venue);
      text = merged.text;
      this.dropReplay();
      this.state = merged.data;
      this.snapshotJson = text;
      void storage.put({ meta: this.head, state: this.state });
      void storage.setAlarm(this.lastHeardAt + this.config.venueLostMs);
    } else {
      this.observeVenueClock(envelope.t);
      this.state = /** @type {Record<string, unknown>} */ (applyMergePatch(this.state ?? {}, envelope.data));
      this.replay.push({ seq: envelope.seq, json: text });
      const dropped = this.replay.length > this.config.replayLimit ? this.replay.shift() : null;
      this.snapshotJson = this.makeSnapshot();
      void storage.put({ meta: this.head, state: this.state, [deltaKey(envelope.seq)]: { seq: envelope.seq, json: text } });
      if (dropped) void storage.delete(deltaKey(dropped.seq));
    }
    this.fanout.publish(text, this.lean.follow(envelope, this.state));
    this.voteSeal.follow(promptOf(this.state));
  }

  /**
   * A live delta made at venue time `t` arrived (venue-clock.js); a publisher's catch-up right
   * after it connected is old news, and a snapshot may have been made long before it was sent.
   * @param {number} t
   */
  observeVenueClock(t) {
    const now = Date.now();
    for (const ws of this.ctx.getWebSockets(PUBLISHER_TAG)) {
      if (now - /** @type {any} */ (ws.deserializeAttachment()?.connectedAt ?? 0) < CATCH_UP_MS) return;
    }
    this.venueClock.observe(t);
    const offset = this.venueClock.offset();
    if (Math.abs(offset - this.savedClockOffset) >= CLOCK_SAVE_STEP_MS) {
      this.savedClockOffset = offset;
      void this.ctx.storage.put('venueClockOffset', offset);
    }
  }

  dropReplay() {
    const stale = this.replay.map((entry) => deltaKey(entry.seq));
    this.replay = [];
    for (let i = 0; i < stale.length; i += 128) void this.ctx.storage.delete(stale.slice(i, i + 128));
  }

  /**
   * Publish one of the root's own venue snapshots (venue-status.js) to every viewer.
   * @param {{ epoch: string, seq: number, data: Record<string, unknown>, text: string }} snapshot
   */
  publishMinted(snapshot) {
    this.head = { epoch: snapshot.epoch, seq: snapshot.seq, rev: this.head.rev + 1, minted: true };
    this.dropReplay();
    this.state = snapshot.data;
    this.snapshotJson = snapshot.text;
    void this.ctx.storage.put({ meta: this.head, state: this.state });
    this.fanout.publish(
      snapshot.text,
      this.lean.follow({ type: 'snapshot', epoch: snapshot.epoch, seq: snapshot.seq, t: Date.now() }, snapshot.data),
    );
    this.voteSeal.follow(promptOf(this.state));
  }

  /** The latest sign of life of the publisher (ms): frames, connects, closes, alive pings. */
  lastHeard() {
    let heard = this.lastHeardAt;
    for (const ws of this.ctx.getWebSockets(PUBLISHER_TAG)) {
      heard = Math.max(
        heard,
        this.ctx.getWebSocketAutoResponseTimestamp(ws)?.getTime() ?? 0,
        /** @type {any} */ (ws.deserializeAttachment())?.connectedAt ?? 0,
      );
    }
    return heard;
  }

  /**
   * Runs while the venue is live (every VENUE_LOST_MS at most) and once a lost show expires. The
   * WebSocket close may never come (a pulled cable, a killed machine): silence is what counts.
   */
  async alarm() {
    const now = Date.now();
    const venue = venueOf(this.state);
    if (venue.status === 'live') {
      const heard = this.lastHeard();
      if (now - heard < this.config.venueLostMs) {
        await this.ctx.storage.setAlarm(heard + this.config.venueLostMs);
        return;
      }
      for (const ws of this.ctx.getWebSockets(PUBLISHER_TAG)) {
        try {
          ws.close(SILENT, `no sign of life for ${this.config.venueLostMs} ms`);
        } catch {
          // already closing
        }
      }
      this.counters.venueLost += 1;
      this.publishMinted(lostSnapshot(this.head, this.state, now));
      await this.ctx.storage.setAlarm(now + this.config.venueExpireMs);
    } else if (venue.status === 'lost') {
      if (now - venue.since >= this.config.venueExpireMs) this.publishMinted(noneSnapshot(now));
      else await this.ctx.storage.setAlarm(venue.since + this.config.venueExpireMs);
    }
  }

  /** @param {Request} request */
  async fetch(request) {
    const { pathname } = new URL(request.url);
    this.learnShow(showFromRequest(request));
    // Score media: viewers read /media/<src>; the (authenticated) publisher manages /publish/media.
    if (pathname.startsWith('/media/')) {
      this.mediaRequests += 1; // the Worker's cache answers the rest (media-cache.js)
      return this.media.serve(request, pathname.slice('/media/'.length));
    }
    if (pathname === '/publish/media' || pathname.startsWith('/publish/media/'))
      return this.media.publish(request, pathname.slice('/publish/media'.length));
    if (pathname !== '/publish') return jsonError(404, 'NOT_FOUND', `no route ${pathname}`);
    this.learnVenueAddress(request);
    if (isWebSocketUpgrade(request)) return this.acceptPublisher();
    if (request.method === 'POST') return this.publishOnce(request);
    return jsonError(426, 'UPGRADE_REQUIRED', 'publish with a WebSocket upgrade or a POST of one envelope');
  }

  acceptPublisher() {
    // One publisher at a time; the newest wins (the older socket is usually a dead connection).
    for (const old of this.ctx.getWebSockets(PUBLISHER_TAG)) {
      try {
        old.close(REPLACED, 'replaced by a newer publisher connection');
      } catch {
        // already closing
      }
    }
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair);
    this.ctx.acceptWebSocket(server, [PUBLISHER_TAG]);
    this.lastHeardAt = Date.now();
    server.serializeAttachment({ connectedAt: this.lastHeardAt });
    // aliveMs: send ALIVE_FRAME this often, or be marked lost after VENUE_LOST_MS of silence.
    server.send(JSON.stringify({ type: 'hello', ...this.publisherHead(), aliveMs: ALIVE_EVERY_MS }));
    // A venue that lost its link during the count may still be waiting for the edge's final count.
    this.voteSeal.resend(promptOf(this.state));
    return new Response(null, { status: 101, webSocket: client });
  }

  /** @param {Request} request */
  async publishOnce(request) {
    // Refused before it is read: a declared length over the limit at once, a chunked body once
    // the limit is passed (body-limit.js), so no body is ever held whole.
    const read = await readBodyLimited(request, MAX_PUBLISH_FRAME_BYTES);
    if (!read.ok) {
      this.counters.tooBig += 1;
      return json({ type: 'error', code: 'TOO_BIG', message: `frame exceeds ${MAX_PUBLISH_FRAME_BYTES} bytes` }, 413);
    }
    const reply = /** @type {any} */ (this.handleFrame(read.text));
    const status =
      reply.type === 'ack' ? 200 : reply.type === 'resync' ? 409 : reply.code === 'TOO_BIG' ? 413 : reply.code === 'STALE' ? 409 : 400;
    return json(reply, status);
  }

  /**
   * @param {WebSocket} ws
   * @param {string | ArrayBuffer} message
   */
  webSocketMessage(ws, message) {
    if (typeof message !== 'string') {
      this.counters.badFrame += 1;
      ws.send(JSON.stringify({ type: 'error', code: 'BAD_FRAME', message: 'send text frames (JSON envelopes), not binary' }));
      return;
    }
    ws.send(JSON.stringify(this.handleFrame(message)));
  }

  /**
   * @param {WebSocket} ws
   * @param {number} code
   * @param {string} reason
   */
  webSocketClose(ws, code, reason) {
    // The lost timer starts now: the alarm (already set while live) fires VENUE_LOST_MS later.
    if (this.ctx.getTags(ws).includes(PUBLISHER_TAG)) this.lastHeardAt = Date.now();
    answerClose(ws, code, reason);
  }

  // ---- RPC for shards and the Worker ----

  /**
   * A shard that got its first viewer registers for pushes and gets the current snapshot.
   * @param {number} index
   * @param {number} viewers
   * @param {string | null} [show] the shard's show (show-identity.js)
   */
  attach(index, viewers = 0, show = null) {
    this.learnShow(show);
    const gen = this.nextGen++;
    this.shards.set(index, gen);
    this.fanout.attach(index, gen);
    this.fanout.report(index, viewers);
    this.saveShards();
    const lean = this.lean.latest();
    return {
      gen,
      rev: this.head.rev,
      snapshot: this.snapshotJson,
      leanRev: lean.rev,
      leanSnapshot: lean.snapshot,
      clockOffset: this.venueClock.offset(),
    };
  }

  /**
   * RPC from the Worker: requests it refused for this show since its isolate's last report
   * (refusal-counter.js; at most one report per isolate per second).
   * @param {unknown} counts
   * @param {string | null} [show]
   */
  countRequestRefusals(counts, show = null) {
    this.learnShow(show);
    this.requestRefusals.add(counts);
  }

  /**
   * What the Worker's SSE/poll cache needs: the snapshot and the deltas after (epoch, seq).
   * `full` means `deltas` is the whole replay window (the caller's position was not in it).
   * @param {string | null} epoch
   * @param {number | null} seq
   * @param {'full' | 'lean'} [stream] which stream (README.md, `?stream=`); the lean one comes from lean-feed.js
   */
  feed(epoch, seq, stream = 'full') {
    if (stream === 'lean') return { ...this.lean.feed(epoch, seq), venue: venueOf(this.state), clockOffset: this.venueClock.offset() };
    const { epoch: headEpoch, seq: headSeq, rev } = this.head;
    const after = epoch === headEpoch ? deltasAfter(this.replay, seq, headSeq) : null;
    return {
      epoch: headEpoch,
      seq: headSeq,
      rev,
      snapshot: this.snapshotJson,
      deltas: after ?? this.replay.slice(),
      full: after === null,
      venue: venueOf(this.state),
      clockOffset: this.venueClock.offset(),
    };
  }

  /** RPC for owner shards: the prompt open in the venue's state (its `vote`), or null. */
  currentVote() {
    return /** @type {any} */ (this.state)?.vote ?? null;
  }

  /**
   * RPC from an owner shard: its totals for a prompt (votes.js). Reports for another prompt than
   * the open one are dropped.
   * @param {number} index
   * @param {string} key
   * @param {number[]} counts
   * @param {number} total
   */
  voteTotals(index, key, counts, total) {
    const prompt = promptOf(this.state);
    return prompt !== null && this.edgeVotes.report(prompt.key, index, key, counts, total);
  }

  /**
   * Seal a prompt on every shard (vote-seal.js): first each shard hands its owners the votes it has
   * read, then each owner seals and returns its count. Every shard index may own device ids.
   * @param {string} key
   */
  async collectVotes(key) {
    const show = this.showName;
    const all = Array.from({ length: this.config.shardCount }, (_, i) => i);
    await Promise.all(all.map((i) => shardStub(this.env, i, show).flushAllVotes(show)));
    const parts = await Promise.all(all.map((i) => shardStub(this.env, i, show).sealVotes(i, key, show)));
    const prompt = promptOf(this.state);
    return sumCounts(parts, prompt?.key === key ? prompt.options.length : undefined);
  }

  stats() {
    return {
      votes: { ...this.edgeVotes.stats(), seal: this.voteSeal.stats() },
      epoch: this.head.epoch,
      seq: this.head.seq,
      rev: this.head.rev,
      replay: this.replay.length,
      lean: this.lean.stats(),
      publishers: this.ctx.getWebSockets(PUBLISHER_TAG).length,
      viewers: this.fanout.viewers(),
      shards: this.fanout.perShard(),
      shardStartedAt: this.fanout.startedAt(),
      frames: { ...this.counters },
      viewerFramesRefused: { ...this.viewerRefused },
      viewerRequestsRefused: this.requestRefusals.counts(),
      viewerRequestRefusalReports: this.requestRefusals.reports(),
      venue: venueOf(this.state),
      venueClock: this.venueClock.stats(),
      mediaRequests: this.mediaRequests,
    };
  }
}
