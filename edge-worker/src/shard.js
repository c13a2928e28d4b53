// A shard holds up to SHARD_CAPACITY viewer WebSockets with the Hibernation API: between
// updates it can leave memory while the sockets stay open. The root pushes each update once
// per shard; the shard forwards the publisher's bytes unchanged to every viewer of the full
// stream, and the root's lean envelopes (lean-feed.js) to every viewer of the lean one.

/* global WebSocketRequestResponsePair */
import { DurableObject } from 'cloudflare:workers';
import { CloseCode, encodePong } from '#core/protocol/envelope.js';
import { encodeVoteReply, parseVote } from '#core/votes/vote-message.js';
import { isAccepted } from '#core/votes/tally.js';
import { readConfig } from './config.js';
import { edgeError, isWebSocketUpgrade } from './http.js';
import { identityOf } from './show-identity.js';
import { rootStub, shardStub } from './stubs.js';
import { createVoteLedger, ownerOf, VOTE_BATCH_MAX, VOTE_BATCH_MS } from './votes.js';
import { judgeViewerFrame, newRefusalCounts, newViewerBudget, readViewerBudget } from './viewer-rules.js';
import { STREAM_TAGS, streamOfRequest, streamOfTags } from './viewer-streams.js';
import { ADDRESS_FULL_HEADER, addressTag, socketsPerAddress } from './address-caps.js';
import { answerClose } from './close-codes.js';

const VIEWER_TAG = 'viewer';
/** The shard's index, on the 101 of every viewer it accepts (ops and tests see where a viewer landed). */
export const SHARD_HEADER = 'x-tutti-shard';
/** Marks a 503 that means "this shard is full, try another". */
export const FULL_HEADER = 'x-tutti-shard-full';

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
    /** @type {string | null} null: the default show */
    this.show = show;
    this.index = index;
    this.attached = false;
    /** @type {Record<import('./viewer-streams.js').StreamName, { rev: number, json: string } | null>} the latest snapshot envelope of each stream, for joiners and resyncs */
    this.latest = { full: null, lean: null };
    /** @type {Promise<void> | null} */
    this.attaching = null;
    /** Viewer frames refused since the last push (reported to the root, see viewer-rules.js). */
    this.refused = newRefusalCounts();
    /** @type {Map<number, { items: { vote: any, at: number, ws: WebSocket }[], timer: any }> | undefined} votes waiting to go to their owner */
    this.voteBatches = undefined;
    /** @type {Set<Promise<void>> | undefined} batches on their way to their owners */
    this.voteFlights = undefined;
    /** Reaction taps since the last push, reported to the root with its result. */
    this.taps = 0;
    /**
     * Edge time − venue time (venue-clock.js), from the root's pushes: pongs carry the venue's
     * clock, as every time in the state does. Undefined after a wake-up until read from storage.
     * @type {number | undefined}
     */
    this.clockOffset = undefined;
    /** The votes this shard owns (votes.js): one choice per device id, reported to the root. */
    this.ledger = createVoteLedger({ storage: ctx.storage, root: () => rootStub(env, this.show) });
    // A plain-text keepalive answered by the runtime without waking the object. The JSON pings of
    // README.md's `GET /ws` carry the server time, so they go through webSocketMessage below.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'));
  }

  viewers() {
    return this.ctx.getWebSockets(VIEWER_TAG);
  }

  full() {
    return this.viewers().length >= this.config.shardCapacity;
  }

  /** @param {Request} request */
  async fetch(request) {
    if (!isWebSocketUpgrade(request)) return edgeError('UPGRADE_REQUIRED', { message: 'connect with a WebSocket' });
    const fullResponse = () => edgeError('SHARD_FULL', { headers: { [FULL_HEADER]: '1', 'retry-after': '2' } });
    if (this.full()) return fullResponse();
    // One public address may not fill a shard (address-caps.js); the Worker then answers 429.
    const addressTagged = addressTag(request);
    if (
      addressTagged &&
      this.ctx.getWebSockets(addressTagged).length >= socketsPerAddress(this.config.addressMaxSockets, this.config.shardCapacity)
    ) {
      return edgeError('TOO_MANY_SOCKETS', {
        message: 'this address holds as many viewers as it may',
        headers: {
          [ADDRESS_FULL_HEADER]: '1',
          'retry-after': '30',
        },
      });
    }
    const stream = streamOfRequest(request);
    // A shard woken by a push has the full snapshot but not necessarily the lean one (it is only
    // pushed when it changed): the first lean joiner then asks the root, as a new shard does.
    if (!this.attached || !this.latest[stream]) {
      try {
        await this.attach();
      } catch (err) {
        return edgeError('ROOT_UNAVAILABLE', {
          message: `the show is not reachable right now: ${err instanceof Error ? err.message : err}`,
          headers: {
            'retry-after': '2',
          },
        });
      }
      if (this.full()) return fullResponse(); // others joined while we waited
    }
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair);
    // The stream and address ride along as tags: after hibernation the object has forgotten everything else.
    this.ctx.acceptWebSocket(server, [VIEWER_TAG, STREAM_TAGS[stream], ...(addressTagged ? [addressTagged] : [])]);
    server.serializeAttachment(newViewerBudget(Date.now()));
    // Same turn as the accept: no push can slip in between, so the joiner sees snapshot → deltas.
    const snapshot = this.latest[stream];
    if (snapshot) server.send(snapshot.json);
    return new Response(null, { status: 101, webSocket: client, headers: { [SHARD_HEADER]: String(this.index) } });
  }

  /** Register with the root and fetch the snapshot; joiners arriving together share one RPC. */
  attach() {
    this.attaching ??= (async () => {
      try {
        const reply = await rootStub(this.env, this.show).attach(this.index, this.viewers().length);
        this.attached = true;
        this.adopt('full', reply.rev, reply.snapshot);
        this.adopt('lean', reply.leanRev, reply.leanSnapshot);
        this.learnClockOffset(reply.clockOffset);
      } finally {
        this.attaching = null;
      }
    })();
    return this.attaching;
  }

  /**
   * @param {import('./viewer-streams.js').StreamName} stream
   * @param {number} rev
   * @param {string | null | undefined} snapshot
   */
  adopt(stream, rev, snapshot) {
    const latest = this.latest[stream];
    if (snapshot && (!latest || rev >= latest.rev)) this.latest[stream] = { rev, json: snapshot };
  }

  /**
   * The root's venue-clock offset (venue-clock.js); stored when it moved, for a wake-up.
   * @param {unknown} offset
   */
  learnClockOffset(offset) {
    if (typeof offset !== 'number' || !Number.isFinite(offset)) return;
    const moved = this.clockOffset === undefined || Math.abs(offset - this.clockOffset) >= 5;
    this.clockOffset = offset;
    if (moved) void this.ctx.storage.put('clockOffset', offset);
  }

  /** The venue's clock, now (ms): what a pong says. */
  async venueNow() {
    if (this.clockOffset === undefined) {
      const stored = await this.ctx.storage.get('clockOffset');
      this.clockOffset ??= typeof stored === 'number' && Number.isFinite(stored) ? stored : 0;
    }
    return Date.now() - this.clockOffset;
  }

  /**
   * RPC from the root: forward a batch of updates to every viewer.
   * @param {import('./fanout.js').PushBatch} batch
   * @returns {import('./fanout.js').PushResult}
   */
  push(batch) {
    this.attached = true;
    this.adopt('full', batch.rev, batch.snapshot);
    this.adopt('lean', batch.leanRev, batch.leanSnapshot);
    this.learnClockOffset(batch.clockOffset);
    let viewers = 0;
    for (const stream of /** @type {const} */ (['full', 'lean'])) {
      const latest = this.latest[stream];
      const frames = batch.gap ? (latest ? [latest.json] : []) : stream === 'full' ? batch.items : (batch.leanItems ?? []);
      const sockets = this.ctx.getWebSockets(STREAM_TAGS[stream]);
      viewers += sockets.length;
      if (frames.length === 0) continue;
      for (const ws of sockets) {
        for (const frame of frames) {
          try {
            ws.send(frame);
          } catch {
            break; // this viewer is gone; the others still get the update
          }
        }
      }
    }
    // With no viewers the root drops us and the next joiner attaches again. A joiner waiting for
    // its attach reply counts as a viewer: dropping us now would leave it without updates.
    const joining = this.attaching !== null;
    if (viewers === 0 && !joining) this.attached = false;
    const refused = this.refused;
    this.refused = newRefusalCounts();
    const taps = this.taps;
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
    if (verdict.action === 'vote') return this.vote(ws, verdict.vote, verdict.limited);
    if (verdict.action === 'tap') {
      this.taps += verdict.n;
      return;
    }
    if (verdict.action === 'pong') {
      ws.send(encodePong(verdict.id, verdict.c, await this.venueNow()));
      return;
    }
    // resync: after hibernation the snapshot is no longer in memory; fetch it from the root.
    const stream = streamOfTags(this.ctx.getTags(ws));
    if (!this.latest[stream]) {
      try {
        await this.attach();
      } catch {
        return ws.close(CloseCode.TRY_AGAIN_LATER, 'the show is not reachable right now');
      }
    }
    const snapshot = this.latest[stream];
    if (snapshot) ws.send(snapshot.json);
  }

  /**
   * A viewer's vote (README.md, "Audience voices"): counted by the shard that owns its device id
   * (votes.js), this one or another. Votes for one owner are gathered for VOTE_BATCH_MS into one
   * RPC; each viewer gets the owner's answer to its own vote.
   * @param {WebSocket} ws
   * @param {import('#core/votes/vote-message.js').Vote} vote
   * @param {boolean} limited over this socket's vote budget: answered, not counted
   */
  vote(ws, vote, limited) {
    if (limited) return ws.send(encodeVoteReply(vote.key, 'rate'));
    const owner = ownerOf(vote.device, this.config.shardCount);
    this.voteBatches ??= new Map();
    let batch = this.voteBatches.get(owner);
    if (!batch) {
      batch = { items: [], timer: setTimeout(() => this.flushVotes(owner), VOTE_BATCH_MS) };
      this.voteBatches.set(owner, batch);
    }
    batch.items.push({ vote, at: Date.now(), ws });
    if (batch.items.length >= VOTE_BATCH_MAX) void this.flushVotes(owner);
  }

  /**
   * Send one owner its batch; the root's seal (flushAllVotes) waits for every send in flight.
   * @param {number} owner
   */
  flushVotes(owner) {
    const batch = this.voteBatches?.get(owner);
    if (!batch) return Promise.resolve();
    this.voteBatches.delete(owner);
    clearTimeout(batch.timer);
    this.voteFlights ??= new Set();
    const flight = this.sendVotes(owner, batch).finally(() => this.voteFlights?.delete(flight));
    this.voteFlights.add(flight);
    return flight;
  }

  /**
   * @param {number} owner
   * @param {{ items: { vote: any, at: number, ws: WebSocket }[] }} batch
   */
  async sendVotes(owner, batch) {
    const items = batch.items.map(({ vote, at }) => ({ vote, at }));
    /** @type {string[]} */
    let outcomes;
    try {
      outcomes = owner === this.index ? await this.recordVotes(items) : await shardStub(this.env, owner, this.show).recordVotes(items);
    } catch {
      outcomes = [];
    }
    batch.items.forEach(({ vote, ws }, i) => {
      const outcome = outcomes[i] ?? 'unavailable';
      try {
        ws.send(encodeVoteReply(vote.key, isAccepted(outcome) ? null : outcome));
      } catch {
        // the viewer left; its vote counts all the same
      }
    });
  }

  /**
   * RPC from the root, the first step of sealing a prompt (vote-seal.js): hand every vote this
   * shard has read to its owner now, and return once every owner has answered.
   */
  async flushAllVotes() {
    for (const owner of [...(this.voteBatches?.keys() ?? [])]) void this.flushVotes(owner);
    await Promise.all([...(this.voteFlights ?? [])]);
    return true;
  }

  /**
   * RPC from the root, the second step of sealing (vote-seal.js): this owner's final count of a
   * prompt; every later vote for it is refused `closed`.
   * @param {unknown} key
   * @returns {Promise<{ counts: number[], total: number }>}
   */
  async sealVotes(key) {
    if (typeof key !== 'string' || key.length > 200) throw new Error('bad seal request');
    return this.ledger.seal(key);
  }

  /**
   * RPC (from a shard or the Worker's POST /vote): count votes whose device ids this shard owns.
   * @param {unknown} items [{ vote, at }]: at most VOTE_BATCH_MAX, `at` when the edge received the vote
   * @returns {Promise<string[]>} per vote: counted, changed, repeat, closed, unknown_option or bad
   */
  async recordVotes(items) {
    const index = this.index;
    if (!Array.isArray(items) || items.length > VOTE_BATCH_MAX) return [];
    const good = [];
    const outcomes = items.map((item) => {
      const parsed = parseVote(item?.vote);
      if (parsed.ok === false || !Number.isFinite(item.at) || ownerOf(parsed.vote.device, this.config.shardCount) !== index) return 'bad';
      good.push({ vote: parsed.vote, at: item.at });
      return null;
    });
    const counted = await this.ledger.recordMany(index, good);
    let next = 0;
    return outcomes.map((o) => o ?? counted[next++]);
  }

  /**
   * @param {WebSocket} ws
   * @param {number} code
   * @param {string} reason
   */
  webSocketClose(ws, code, reason) {
    answerClose(ws, code, reason);
  }
}
