// bench:notation worker: the real show server playing the load-test score to the runner's OSC
// receiver, alone in this process, on the high-resolution wall clock the runner shares. On
// command it engraves --file over and over in the background (each pass a fresh copy, so the
// disk cache never answers), as a venue does after a score with notation loads.
//
// argv: --score FILE --target PORT --bpm N --file NOTATION --work DIR

import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLog, startShowServer } from '../../local-server/index.js';
import { serveParent, tellParent } from '../lib/child-ipc.js';
import { importNotation } from './import-notation.js';

const { values } = parseArgs({
  options: {
    score: { type: 'string' },
    target: { type: 'string' },
    bpm: { type: 'string' },
    file: { type: 'string' },
    work: { type: 'string' },
  },
});
const work = String(values.work);

const server = await startShowServer({
  scorePath: values.score,
  host: '127.0.0.1',
  port: 0,
  controlPort: 0,
  stateFile: null,
  notationCacheDir: path.join(work, 'cache'),
  log: createLog(),
  autoplay: true,
  oscTargets: [{ host: '127.0.0.1', port: Number(values.target) }],
  now: () => performance.timeOrigin + performance.now(),
});
const { show } = server;
show.engine.setTempo(Number(values.bpm));
show.events.on('transport', (transport) => {
  if (transport === 'stopped') setTimeout(() => show.engine.play(), 0);
});
/** @type {Array<[number, number, number]>} [bar, beat, at] */
let beats = [];
show.events.on('beat', (beat) => beats.push([beat.bar, beat.beat, beat.at]));

// The notation is imported before any window: only engraving runs while beats are measured.
const notationDir = path.join(work, 'notation');
const { score } = await importNotation(String(values.file), notationDir);
const source = await readFile(String(values.file));
const ext = path.extname(String(values.file));
let engraving = null;
let passes = 0;
// How late the show's event loop runs a timer (what delays a beat's send): per window.
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
/**
 * The show's thread (this process's main thread) on Linux: ms on a CPU and ms waiting for one
 * (/proc/<pid>/task/<pid>/schedstat), which tells its own work from contention; null elsewhere.
 */
const mainThread = () => {
  try {
    const [run, wait] = readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { cpu: run / 1e6, wait: wait / 1e6, at: performance.now() };
  } catch {
    return null;
  }
};
let lastThread = mainThread();

serveParent(
  {
    /** The beats published since the last call. */
    beats: () => {
      const out = beats;
      beats = [];
      return out;
    },
    /** The event loop's delay since the last call (ms), then start afresh. */
    loop: () => {
      const now = mainThread();
      const seconds = now && lastThread ? (now.at - lastThread.at) / 1000 : NaN;
      const out = {
        p99: loop.percentile(99) / 1e6,
        max: loop.max / 1e6,
        samples: loop.count,
        cpuMsPerS: now && lastThread ? (now.cpu - lastThread.cpu) / seconds : null,
        waitMsPerS: now && lastThread ? (now.wait - lastThread.wait) / seconds : null,
      };
      loop.reset();
      lastThread = now;
      return out;
    },
    start: () => {
      let running = true;
      const loop = (async () => {
        while (running) {
          const name = `pass-${passes}${ext}`;
          // Bytes after the end change the hash; the readers ignore them (an XML comment, or past a zip's end).
          await writeFile(path.join(notationDir, name), Buffer.concat([source, Buffer.from(`\n<!-- pass ${passes} -->\n`)]));
          server.notation.load({ score: { ...score, notation: name }, dir: notationDir });
          await server.notation.settled();
          passes += 1;
        }
      })();
      engraving = { stop: () => ((running = false), loop) };
      return true;
    },
    stop: async () => {
      await engraving?.stop();
      return { passes };
    },
  },
  { onExit: () => server.close() },
);

tellParent('ready', { pid: process.pid, wsUrl: `${server.audienceUrl.replace(/^http/, 'ws')}/ws` });
