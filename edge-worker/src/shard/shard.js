// A shard holds up to SHARD_CAPACITY viewer WebSockets with the Hibernation API: between
// updates it can leave memory while the sockets stay open. The root pushes each update once
// per shard; the shard forwards the publisher's bytes unchanged to every viewer of the full
// stream, and the root's lean envelopes (lean-feed.js) to every viewer of the lean one.
// A shell over its parts (docs/explanation/edge-design.md#shards-srcshardshardjs-class-shard): what it knows of the show
// (shard-view.js), its viewers' frames (viewer-rules.js), their votes on the way to their owners
// (vote-forwarder.js) and the votes it owns (owner-votes.js).

/* global WebSocketRequestResponsePair */
import { DurableObject } from 'cloudflare:workers';
import { CloseCode, encodePong } from '#core/protocol/envelope.js';
import { readConfig } from '../env/config.js';
import { edgeError, isWebSocketUpgrade } from '../http/http.js';
import { createOwnerVotes } from './owner-votes.js';
import { createShardView } from './shard-view.js';
import { identityOf } from '../env/show-identity.js';
import { rootStub, shardStub } from '../env/stubs.js';
import { createVoteForwarder } from './vote-forwarder.js';
import { judgeViewerFrame, newRefusalCounts, newViewerBudget, readViewerBudget } from './viewer-rules.js';
import { STREAM_TAGS, streamOfRequest, streamOfTags } from './viewer-streams.js';
import { ADDRESS_FULL_HEADER, addressTag, socketsPerAddress } from '../guards/address-caps.js';
import { answerClose } from '../http/close-codes.js';

const VIEWER_TAG = 'viewer';
/** The shard's index, on the 101 of every viewer it accepts (ops and tests see where a viewer landed). */
export const SHARD_HEADER = 'x-tutti-shard';
/** Marks a 503 that means "this shard is full, try another". */
export const FULL_HEADER = 'x-tutti-shard-full';
/** @type {readonly import('./viewer-streams.js').StreamName[]} */
const STREAMS = ['full', 'lean'];

export class Shard extends DurableObject {
  /**
   * @param {DurableObjectState} ctx
   * @param {Env} env
   */
  constructor(ctx, env) {
    super(ctx, env);
    this.config = readConfig(env);
    /** When this instance started: a new value after hibernation or eviction (ops, tests). */
    this.startedAt = Date.now();
    // Which show and which shard of it, from the object's own name (show-identity.js).
    const { show, index } = identityOf(ctx, 'shard');
    this.index = index;
    const root = () => rootStub(env, show);
    this.view = createShardView({ storage: ctx.storage, attach: (viewers) => root().attach(index, viewers) });
    /** Viewer frames refused since the last push (reported to the root, see viewer-rules.js). */
    this.refused = newRefusalCounts();
    /** Reaction taps since the last push, reported to the root with its result. */
    this.taps = 0;
    const { shardCount } = this.config;
    this.owned = createOwnerVotes({ storage: ctx.storage, root, index, shardCount });
    this.forwarder = createVoteForwarder({
      shardCount,
      record: (owner, items) => (owner === index ? this.owned.record(items) : shardStub(env, owner, show).recordVotes(items)),
    });
    // A plain-text keepalive answered by the runtime without waking the object. The JSON pings of
    // docs/reference/audience-protocol.md#endpoints carry the server time, so they go through webSocketMessage below.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'));
  }

  viewers() {
    return this.ctx.getWebSockets(VIEWER_TAG);
  }

  full() {
    return this.viewers().length >= this.config.shardCapacity;
  }

  /** @param {Request} request a viewer's WebSocket upgrade, forwarded by the Worker (viewers.js) */
  async fetch(request) {
    if (!isWebSocketUpgrade(request)) return edgeError('UPGRADE_REQUIRED', { message: 'connect with a WebSocket' });
    const fullResponse = () => edgeError('SHARD_FULL', { headers: { [FULL_HEADER]: '1', 'retry-after': '2' } });
    if (this.full()) return fullResponse();
    // One public address may not fill a shard (address-caps.js); the Worker then answers 429.
    const addressTagged = addressTag(request);
    const perAddress = socketsPerAddress(this.config.addressMaxSockets, this.config.shardCapacity);
    if (addressTagged && this.ctx.getWebSockets(addressTagged).length >= perAddress) {
      const headers = { [ADDRESS_FULL_HEADER]: '1', 'retry-after': '30' };
      return edgeError('TOO_MANY_SOCKETS', { message: 'this address holds as many viewers as it may', headers });
    }
    const stream = streamOfRequest(request);
    try {
      await this.view.ensure(stream, this.viewers().length);
    } catch (err) {
      const message = `the show is not reachable right now: ${err instanceof Error ? err.message : err}`;
      return edgeError('ROOT_UNAVAILABLE', { message, headers: { 'retry-after': '2' } });
    }
    if (this.full()) return fullResponse(); // others joined while we waited
    const [client, server] = Object.values(new WebSocketPair());
    // The stream and address ride along as tags: after hibernation the object has forgotten everything else.
    this.ctx.acceptWebSocket(server, [VIEWER_TAG, STREAM_TAGS[stream], ...(addressTagged ? [addressTagged] : [])]);
    server.serializeAttachment(newViewerBudget(Date.now()));
    // Same turn as the accept: no push can slip in between, so the joiner sees snapshot → deltas.
    const snapshot = this.view.snapshot(stream);
    if (snapshot) server.send(snapshot);
    return new Response(null, { status: 101, webSocket: client, headers: { [SHARD_HEADER]: String(this.index) } });
  }

  /**
   * RPC from the root: forward a batch of updates to every viewer.
   * @param {import('./fanout.js').PushBatch} batch
   * @returns {import('./fanout.js').PushResult}
   */
  push(batch) {
    this.view.take(batch);
    let viewers = 0;
    for (const stream of STREAMS) {
      const latest = this.view.snapshot(stream);
      const frames = batch.gap ? (latest ? [latest] : []) : stream === 'full' ? batch.items : (batch.leanItems ?? []);
      const sockets = this.ctx.getWebSockets(STREAM_TAGS[stream]);
      viewers += sockets.length;
      if (frames.length > 0) sendAll(sockets, frames);
    }
    const joining = this.view.settle(viewers);
    const { refused, taps } = this;
    this.refused = newRefusalCounts();
    this.taps = 0;
    return { viewers, joining, startedAt: this.startedAt, refused, taps };
  }

  /**
   * @param {WebSocket} ws
   * @param {string | ArrayBuffer} message
   */
  async webSocketMessage(ws, message) {
    // Frames still queued behind one that closed the socket cost nothing more.
    if (ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    const { verdict, budget } = judgeViewerFrame(readViewerBudget(ws.deserializeAttachment(), now), message, now);
    ws.serializeAttachment(budget);
    if (verdict.action === 'close' || verdict.action === 'ignore') this.refused[verdict.refusal] += 1;
    if (verdict.action === 'close') return ws.close(verdict.code, verdict.reason);
    if (verdict.action === 'ignore') return;
    if (verdict.action === 'vote') return this.forwarder.vote(ws, verdict.vote, verdict.limited);
    if (verdict.action === 'tap') {
      this.taps += verdict.n;
      return;
    }
    if (verdict.action === 'pong') return ws.send(encodePong(verdict.id, verdict.c, await this.view.venueNow()));
    // resync: after hibernation the snapshot is no longer in memory; fetch it from the root.
    const stream = streamOfTags(this.ctx.getTags(ws));
    if (!this.view.snapshot(stream)) {
      try {
        await this.view.ensure(stream, this.viewers().length);
      } catch {
        return ws.close(CloseCode.TRY_AGAIN_LATER, 'the show is not reachable right now');
      }
    }
    const snapshot = this.view.snapshot(stream);
    if (snapshot) ws.send(snapshot);
  }

  /**
   * @param {WebSocket} ws
   * @param {number} code
   * @param {string} reason
   */
  webSocketClose(ws, code, reason) {
    answerClose(ws, code, reason);
  }

  // ---- RPC for the root, other shards and the Worker (votes.js, vote-seal.js) ----

  /** The first step of sealing a prompt: hand every vote this shard has read to its owner now. */
  async flushAllVotes() {
    await this.forwarder.flushAll();
    return true;
  }

  /**
   * The second step of sealing: this owner's final count of a prompt; later votes for it are refused `closed`.
   * @param {unknown} key
   */
  sealVotes(key) {
    return this.owned.seal(key);
  }

  /**
   * Count votes whose device ids this shard owns (from a shard or the Worker's POST /vote).
   * @param {unknown} items [{ vote, at }]
   */
  recordVotes(items) {
    return this.owned.record(items);
  }
}

/**
 * Send the frames in order, frame by frame to every socket: an operator's action reaches every
 * viewer before its look-ahead goes to any (lean-feed.js). A viewer whose send throws is gone: it
 * gets nothing more, the others still get every frame.
 * @param {WebSocket[]} sockets
 * @param {string[]} frames
 */
function sendAll(sockets, frames) {
  let open = sockets;
  for (const frame of frames) {
    open = open.filter((ws) => {
      try {
        ws.send(frame);
        return true;
      } catch {
        return false;
      }
    });
  }
}
