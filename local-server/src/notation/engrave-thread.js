// The engraving (docs/reference/notation.md#the-cache), in a child process or a worker thread
// (engrave-host.js), at the lowest CPU priority: loads Verovio once, then
// takes one job at a time from the server: read the notation (notation-source.js), engrave a
// part in a layout (engrave-pages.js), write the pages to the cache (notation-cache.js), and
// answer with the small meta only, so the show's thread never handles pages. A file it cannot
// read or engrave is answered (and cached) as an error sentence.

import { readdirSync, readlinkSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { setPriority } from 'node:os';
import { ImportError } from '#core/import/import-error.js';
import { engravePages } from './engrave-pages.js';
import { LAYOUTS } from './layouts.js';
import { extractMusicFont } from './music-font.js';
import { readNotationSource } from './notation-source.js';
import { writeEngraving, writeFont } from './notation-cache.js';

/** @type {any} */
let toolkit;
/** The music font (music-font.js), taken once, and the cache folders it was written to. */
let font = /** @type {import('./music-font.js').MusicFont | null | undefined} */ (undefined);
const fontIn = new Set();
/** The last file read, by hash: the parts of one file are engraved one after another. */
let last = { hash: '', source: /** @type {import('./notation-source.js').NotationSource | null} */ (null) };

async function verovio() {
  if (toolkit) return toolkit;
  const [{ default: createModule }, esm] = await Promise.all([import('verovio/wasm'), import('verovio/esm')]);
  const module = await createModule();
  esm.enableLog(esm.LOG_OFF, module); // its warnings ("justification compressed") would go to the server's stdout
  toolkit = new esm.VerovioToolkit(module);
  return toolkit;
}

function sourceOf(job) {
  if (last.hash !== job.hash || !last.source) last = { hash: job.hash, source: readNotationSource(job.bytes, job.name) };
  return last.source;
}

/**
 * @param {{ type: 'inspect' | 'engrave', hash: string, bytes: Uint8Array, name: string, xmlId?: string, layout?: string, dir?: string, key?: string }} job
 */
async function run(job) {
  if (job.type === 'inspect') {
    const { parts, written, order, printed } = sourceOf(job);
    return { parts, written, order, printed };
  }
  const layout = LAYOUTS[/** @type {string} */ (job.layout)];
  const dir = /** @type {string} */ (job.dir);
  if (font === undefined) font = extractMusicFont(await verovio());
  if (font && !fontIn.has(dir)) {
    await writeFont(dir, font);
    fontIn.add(dir);
  }
  let engraved;
  try {
    engraved = engravePages(await verovio(), sourceOf(job), /** @type {string} */ (job.xmlId), layout, font);
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    return writeEngraving(/** @type {string} */ (job.dir), /** @type {string} */ (job.key), { meta: { error: error.message } });
  }
  const { pages, width, height, boxes } = engraved;
  return writeEngraving(/** @type {string} */ (job.dir), /** @type {string} */ (job.key), {
    pages,
    meta: { pages: pages.length, width, height, boxes },
  });
}

/**
 * Give the engraving the lowest CPU priority, so that on a busy machine the show (beats, OSC,
 * fan-out) runs first. On Linux a priority belongs to each thread: a process nices every thread
 * of its own (V8 started its helper threads before this code ran; later ones inherit it), a
 * worker thread only itself (the others are the show's). Elsewhere a process's priority is its
 * own, and a worker thread engraves at normal priority.
 * @param {boolean} wholeProcess
 */
function yieldToTheShow(wholeProcess) {
  let tasks = [];
  try {
    tasks = wholeProcess ? readdirSync('/proc/self/task').map(Number) : [Number(readlinkSync('/proc/thread-self').split('/').pop())];
  } catch {
    // not Linux
  }
  if (!tasks.length && wholeProcess) tasks = [0];
  for (const tid of tasks) {
    try {
      if (Number.isInteger(tid) && (wholeProcess || tid !== process.pid)) setPriority(tid, 19);
    } catch {
      // a thread that has ended meanwhile, or a system that refuses: engrave at normal priority
    }
  }
}

/** Answer the show's jobs, one message each, through `send`. */
function serve(/** @type {(message: any) => void} */ send) {
  return async (/** @type {any} */ message) => {
    try {
      send({ id: message.id, ok: true, value: await run(message.job) });
    } catch (error) {
      send({
        id: message.id,
        ok: false,
        known: error instanceof ImportError,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  };
}

if (parentPort) {
  yieldToTheShow(false);
  const port = parentPort;
  port.on(
    'message',
    serve((message) => port.postMessage(message)),
  );
} else if (process.send) {
  yieldToTheShow(true);
  const send = process.send.bind(process);
  // The show server went away (crash, kill -9): nothing is left to engrave for.
  process.on('disconnect', () => process.exit(0));
  process.on('message', serve(send));
}
