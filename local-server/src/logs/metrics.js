// Prometheus metrics of one show server. Each server has its own registry (tests run several
// servers in one process); hot paths increment once per fan-out, never once per client.

import client from 'prom-client';

/**
 * @typedef {ReturnType<typeof createMetrics>} Metrics
 */

/** Sources of bad input counted in tutti_bad_input_total{source}. */
export const BadInput = Object.freeze({
  WS_FRAME: 'ws_frame',
  WS_OVERSIZE: 'ws_oversize',
  WS_BINARY: 'ws_binary',
  WS_FLOOD: 'ws_flood',
  WS_RESYNC: 'ws_resync',
  QUERY: 'query',
  HTTP_BODY: 'http_body',
  AUTH: 'auth',
  RATE: 'rate',
  OSC: 'osc',
  OSC_DENIED: 'osc_denied',
  OSC_FLOOD: 'osc_flood',
  // A packet to the OSC sender's socket that is not the echo of a pending test ping (docs/how-to/connect-osc-tools.md#on-time-in-every-receiver).
  OSC_REPLY: 'osc_reply',
  SCORE: 'score',
  // A listed media file whose real path is outside the score's folder (a symbolic link), asked for by a phone.
  MEDIA_LINK: 'media_link',
  // Control listener: a Host that is not the loopback control port (DNS rebinding), a request from another origin.
  CONTROL_HOST: 'control_host',
  CONTROL_ORIGIN: 'control_origin',
  // A malformed vote (docs/reference/audience-protocol.md#audience-voices): a WebSocket vote frame (closed 1008) or a POST /vote body (400).
  VOTE: 'vote',
  // A /part/… request (musicians' part pages) without the right key from the console (docs/how-to/part-pages.md#part-pages).
  PART_KEY: 'part_key',
});

/**
 * The process's own metrics (prom-client's collectDefaultMetrics: event-loop lag, CPU, memory,
 * GC, handles), collected once per process however many servers it runs, and appended to every
 * server's /metrics (docs/reference/metrics.md#metric-names).
 */
let processRegistry = null;
function processMetrics() {
  if (!processRegistry) {
    processRegistry = new client.Registry();
    client.collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 20 });
  }
  return processRegistry;
}

/**
 * A server's own registry and the counters, gauges and histogram docs/README.md lists under "Metrics"
 * (one registry per server, so tests can run several servers in one process).
 */
export function createMetrics() {
  const registry = new client.Registry();
  const labelled = (Type, name, help, labelNames, extra = {}) => new Type({ name, help, labelNames, registers: [registry], ...extra });

  return {
    registry,
    /** The /metrics text: this server's metrics, then the process's (event-loop lag first of all). */
    exposition: async () => `${await registry.metrics()}\n${await processMetrics().metrics()}`,
    clients: labelled(client.Gauge, 'tutti_clients', 'Connected audience clients by transport', ['transport']),
    joins: labelled(client.Counter, 'tutti_joins_total', 'Audience connections accepted', ['transport']),
    messages: labelled(client.Counter, 'tutti_messages_sent_total', 'Envelopes sent to audience clients', ['transport']),
    bytes: labelled(client.Counter, 'tutti_bytes_sent_total', 'Envelope bytes sent to audience clients', ['transport']),
    fanout: labelled(client.Histogram, 'tutti_fanout_duration_seconds', 'Time to hand one update to every connected client', [], {
      buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
    }),
    dropped: labelled(client.Counter, 'tutti_frames_dropped_total', 'Deltas skipped for slow clients (coalesced into a later snapshot)', [
      'transport',
    ]),
    slowClosed: labelled(client.Counter, 'tutti_slow_clients_closed_total', 'Clients closed because they stopped reading', ['transport']),
    resyncs: labelled(client.Counter, 'tutti_resyncs_total', 'Snapshots sent to resync a client (request, gap, slow client)', [
      'transport',
      'reason',
    ]),
    badInput: labelled(client.Counter, 'tutti_bad_input_total', 'Rejected input by source', ['source']),
    connectionsRejected: labelled(
      client.Counter,
      'tutti_connections_rejected_total',
      'Audience sockets closed before serving: idle (no request in time) or per_address (--max-per-address)',
      ['reason'],
    ),
    overflow: labelled(client.Counter, 'tutti_overflow_total', 'Viewers turned away or redirected by --max-clients', ['transport']),
    seq: labelled(client.Gauge, 'tutti_state_seq', 'Sequence number of the current state', []),
    oscSent: labelled(client.Counter, 'tutti_osc_sent_total', 'OSC packets sent to musicians', ['kind']),
    oscErrors: labelled(client.Counter, 'tutti_osc_send_errors_total', 'OSC send failures', []),
    oscIn: labelled(client.Counter, 'tutti_osc_in_total', 'OSC remote-control messages accepted', ['address']),
    edgeConnected: labelled(client.Gauge, 'tutti_edge_connected', '1 while the edge uplink is connected', []),
    edgeLag: labelled(client.Gauge, 'tutti_edge_lag', 'Updates the edge has not acknowledged yet', []),
    edgeVenue: labelled(
      client.Gauge,
      'tutti_edge_venue',
      'What the edge tells remote viewers about the show (its /healthz venue): 1 for the current status',
      ['status'],
    ),
    votes: labelled(
      client.Counter,
      'tutti_votes_total',
      'Well-formed votes from venue phones by outcome: counted, changed, repeat (same choice again), closed (no such prompt open), unknown_option, full, rate (over the per-socket vote budget)',
      ['outcome'],
    ),
    voteCount: labelled(
      client.Gauge,
      'tutti_vote_count',
      'Votes per option of the current (or last) prompt, counted at the venue or reported by the edge',
      ['prompt', 'option', 'where'],
    ),
    promptsOpened: labelled(client.Counter, 'tutti_prompts_opened_total', 'Prompts opened to the audience', []),
    voteResults: labelled(
      client.Counter,
      'tutti_vote_results_total',
      'Prompt results by how they counted the edge: final (its exact final count), timeout (it did not come in time: its last running totals), off (no edge mirror)',
      ['edge'],
    ),
    taps: labelled(
      client.Counter,
      'tutti_taps_total',
      'Reaction taps counted during a reaction window, from venue phones or reported by the edge',
      ['where'],
    ),
    reactionLevel: labelled(
      client.Gauge,
      'tutti_reaction_level',
      'The audience reaction level (0-1) during a reaction window, 0 outside',
      [],
    ),
    edgeReplaced: labelled(
      client.Gauge,
      'tutti_edge_replaced',
      '1 while another venue server publishing with the same token has replaced this one (it waits for POST /api/edge/resume)',
      [],
    ),
  };
}
