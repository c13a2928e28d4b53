// Benchmark worker: the real Tutti show server (startShowServer) playing the load-test score,
// alone in this process so its RSS and CPU are its own. It reports each fan-out's duration
// (timed around hub.broadcast, the same span as tutti_fanout_duration_seconds but exact rather
// than bucketed) and loops the score so a run can last longer than the piece.
//
// argv: --score FILE --token T [--stream full|lean] (which stream the window and fan-out times follow)
//   [--ahead-pieces] (impl ours-pieces: the full stream's next `ahead` chunk in pieces)
//   [--look-ahead-delay MS] (bench:operator's A/B: how long an action's look-ahead waits on the lean stream)

import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { startShowServer } from '../../local-server/index.js';
import { serveParent, tellParent } from '../lib/child-ipc.js';

const { values } = parseArgs({
  options: {
    score: { type: 'string' },
    token: { type: 'string' },
    stream: { type: 'string', default: 'full' },
    'ahead-pieces': { type: 'boolean', default: false },
    'look-ahead-delay': { type: 'string' },
  },
});
const streamName = values.stream === 'lean' ? 'lean' : 'full';

const server = await startShowServer({
  scorePath: values.score,
  host: '127.0.0.1',
  port: 0,
  controlPort: 0,
  token: values.token,
  autoplay: true,
  oscTargets: [],
  // ours-pieces: the flywheel's next chunk in pieces on the full stream (docs/explanation/clock-sync.md#the-flywheel)
  aheadPieces: values['ahead-pieces'],
  lookAheadDelayMs: values['look-ahead-delay'] === undefined ? undefined : Number(values['look-ahead-delay']),
});
const { show } = server;

/** @type {number[]} fan-out durations (ms) since the window opened */
let durations = [];
const hub = /** @type {any} */ (show.hub);
const broadcast = hub.broadcast;
// show.js calls hub.broadcast(seq, json) through the hub object, so wrapping the property
// times exactly one real fan-out (plus ~1 µs for the wrapper).
hub.broadcast = (seq, json, group = 'full') => {
  const started = performance.now();
  broadcast(seq, json, group);
  if (group === streamName) durations.push(performance.now() - started);
};
const measured = show.streamNamed(streamName);

// Like an operator pressing play again: the piece (128 bars ≈ 4.3 min) never ends mid-run.
show.events.on('transport', (transport) => {
  if (transport === 'stopped') setTimeout(() => show.engine.play(), 0);
});

serveParent(
  {
    /** Start a measurement window: fan-out timings restart; the current seq is its lower bound. */
    'window-start': () => {
      durations = [];
      return { seq: measured.seq(), clients: show.hub.counts() };
    },
    /** Close the window: the current seq is its upper bound. */
    'window-end': () => ({ seq: measured.seq(), durations, clients: show.hub.counts() }),
    memory: () => process.memoryUsage(),
    seq: () => ({ seq: measured.seq() }),
  },
  { onExit: () => server.close() },
);

tellParent('ready', {
  impl: values['ahead-pieces'] ? 'ours-pieces' : 'ours',
  audienceUrl: server.audienceUrl,
  controlUrl: server.controlUrl,
  wsUrl: `${server.audienceUrl.replace(/^http/, 'ws')}/ws${streamName === 'lean' ? '?stream=lean' : ''}`,
  pid: process.pid,
});
