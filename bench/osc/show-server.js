// bench:osc worker: the real show server playing the load-test score (120 bpm, looped) to the
// runner's OSC targets with their default settings, alone in this process. Its clock is the
// high-resolution wall clock (timeOrigin + performance.now()), which the runner shares, so a
// beat's `at` and a receiver's arrival time compare directly. It reports the engine's schedule:
// every beat it published, with the time it sounds.
//
// argv: --score FILE --token T --targets PORT,PORT,… [--bpm N] (a tempo override)

import { parseArgs } from 'node:util';
import { startShowServer, createLog } from '../../local-server/index.js';
import { serveParent, tellParent } from '../lib/child-ipc.js';

const { values } = parseArgs({
  options: { score: { type: 'string' }, token: { type: 'string' }, targets: { type: 'string' }, bpm: { type: 'string' } },
});
const ports = String(values.targets).split(',').map(Number);

const server = await startShowServer({
  scorePath: values.score,
  host: '127.0.0.1',
  port: 0,
  controlPort: 0,
  token: values.token,
  stateFile: null,
  log: createLog(),
  autoplay: true,
  oscTargets: ports.map((port) => ({ host: '127.0.0.1', port })),
  now: () => performance.timeOrigin + performance.now(),
});
const { show } = server;
if (values.bpm) show.engine.setTempo(Number(values.bpm));

/** @type {Array<[number, number, number]>} [bar, beat, at] of every beat published */
let beats = [];
show.events.on('beat', (beat) => beats.push([beat.bar, beat.beat, beat.at]));
// Like an operator pressing play again: the piece never ends mid-run.
show.events.on('transport', (transport) => {
  if (transport === 'stopped') setTimeout(() => show.engine.play(), 0);
});

serveParent(
  {
    /** The beats published since the last call, and the audience counts. */
    beats: () => {
      const out = beats;
      beats = [];
      return { beats: out, clients: show.hub.counts(), osc: server.status().osc.targets.map((t) => ({ sent: t.sent, errors: t.errors })) };
    },
  },
  { onExit: () => server.close() },
);

tellParent('ready', { wsUrl: `${server.audienceUrl.replace(/^http/, 'ws')}/ws`, pid: process.pid });
