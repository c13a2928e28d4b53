// The performance record (docs/how-to/record-and-replay.md#the-performance-record): every show the server runs is
// written to records/<id>/ in the state folder as JSON lines — each envelope of the full state
// stream as it was sent, transport and tempo actions with who made them, vote results, the
// score loaded, warnings and errors, and every SAMPLE_MS the audience and sync figures. A
// crash-resumed show continues the same record (the resume file names it). Recording never
// stops the show: a disk error is logged once and recording ends. This file opens the record (a
// new one or the interrupted one) and closes it; what is written comes by source from
// show-entries.js (envelopes, vote results via vote-entries.js, actions, score loads) and
// sample-entries.js (the log's warnings, the figures).

import fs from 'node:fs';
import path from 'node:path';
import { packageVersion } from '../cli/version.js';
import { openRecordWriter, newRecordId, RECORD_ID, SUMMARY_FILE } from './record-writer.js';
import { recordShowEntries } from './show-entries.js';
import { recordSamples } from './sample-entries.js';

/** Audience and sync figures are sampled this often (1,440 samples in a 2-hour show). */
export const SAMPLE_MS = 5000;
/** Entries that go to disk at once (record-writer.js, chunk-sync.js); the rest within SYNC_MS. */
const DURABLE = new Set(['open', 'act', 'vote', 'score']);

/** @typedef {Awaited<ReturnType<typeof startRecorder>>} Recorder */

/**
 * Read the summary of the record a crash interrupted, if `id` names one in `root`.
 * @param {string} root
 * @param {unknown} id
 */
function interrupted(root, id) {
  if (typeof id !== 'string' || !RECORD_ID.test(id)) return null;
  try {
    return JSON.parse(fs.readFileSync(path.join(root, id, SUMMARY_FILE), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * @param {object} options
 * @param {string} options.root the records folder (records/ in the state folder)
 * @param {unknown} [options.continueId] the record of the show this server resumed (from the resume file)
 * @param {import('../show/show.js').Show} options.show
 * @param {() => number} options.now the server clock
 * @param {import('../logs/metrics.js').Metrics} options.metrics
 * @param {{ status: () => any }} options.edge
 * @param {{ status: () => any, voteState?: () => any }} options.votes the vote desk
 * @param {{ list: () => any[] }} options.partPages
 * @param {ReturnType<typeof import('../console/latency-probe.js').createLatencyProbe> | null} options.probe
 * @param {() => number} options.probeClock
 * @param {import('../logs/log.js').Log} options.log
 * @param {number} [options.sampleMs]
 * @param {number} [options.chunkBytes]
 * @param {number} [options.syncMs] lines reach the disk at most this long after they were written (chunk-sync.js)
 * @param {(fd: number) => Promise<void>} [options.fsync] the fsync (tests count the calls)
 */
export async function startRecorder({
  root,
  continueId = null,
  show,
  now,
  metrics,
  edge,
  votes,
  partPages,
  probe,
  probeClock,
  log,
  sampleMs = SAMPLE_MS,
  chunkBytes,
  syncMs,
  fsync,
}) {
  const previous = interrupted(root, continueId);
  const score = () => ({ id: show.engine.score().id, title: show.engine.score().title, path: show.source().path });
  let warned = false;
  const onError = (/** @type {Error} */ err) => {
    if (!warned) log.warn(`performance record: ${err.message}; recording stopped, the show goes on`);
    warned = true;
  };
  const id = previous ? /** @type {string} */ (continueId) : newRecordId(Date.now());
  const summary = previous
    ? { ...previous, endedAt: null, resumes: (previous.resumes ?? 0) + 1 }
    : { v: 1, id, score: { id: score().id, title: score().title }, startedAt: Math.round(now()), endedAt: null, resumes: 0 };
  const writer = await openRecordWriter({ root, id, summary, chunkBytes, onError, syncMs, fsync });
  const appendLine = (/** @type {string} */ line) => writer.append(line);
  const write = (/** @type {Record<string, unknown>} */ entry) =>
    writer.append(JSON.stringify({ t: Math.round(now()), ...entry }), { durable: DURABLE.has(/** @type {string} */ (entry.k)) });

  write({
    k: 'open',
    id,
    resumed: Boolean(previous),
    score: score(),
    epoch: show.stream.epoch(),
    version: packageVersion(),
    pid: process.pid,
  });
  // Every segment (a start, a resume) begins with a snapshot, so a reader never needs what a crash lost.
  appendLine(`{"k":"env","e":${show.stream.snapshot().json}}`);

  // What is written, by source: the show (envelopes, votes, actions, scores), then the samples.
  const stopShow = recordShowEntries({ show, votes, write, appendLine, score });
  probe?.start();
  const samples = recordSamples({
    figures: { show, metrics, edge, partPages, probe, clock: probeClock },
    log,
    write,
    onError,
    sampleMs,
  });
  let closed = false;

  return {
    id,
    dir: writer.dir,
    /** Take a sample now (tests; the timer does it every sampleMs). */
    sample: samples.tick,
    /** How many fsyncs of the record's chunks have completed (npm run bench:record). */
    syncs: () => writer.syncs(),
    /** A clean stop: the record says so and its last chunk is gzipped. */
    async close() {
      if (closed) return;
      closed = true;
      samples.stop();
      await samples.tick();
      stopShow();
      probe?.close();
      write({ k: 'close', reason: 'stop' });
      await writer.summarize({ endedAt: Math.round(now()) });
      await writer.close();
    },
  };
}
