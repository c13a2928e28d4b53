// The performance record reaches the disk (docs/how-to/record-and-replay.md#the-performance-record: what a power cut
// can lose): the record writer fsyncs a chunk right after a line that matters (an action), else
// within SYNC_MS of the first line not yet on disk — never once per line, never on the event loop
// — and flushes a chunk before it is closed at a rotation and at a clean stop. The fsync is the
// real one, wrapped to see each call (and that its file is still open then).
import { afterAll, expect, test } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openRecordWriter } from '../../../local-server/src/record/record-writer.js';
import { fsyncFd } from '../../../local-server/src/record/chunk-sync.js';
import { createTransportLog } from '../../../local-server/src/logs/transport-log.js';
import { startShow } from '../../support/show.js';
import { recorderOf } from '../../support/recorder.js';
import { waitFor } from '../../support/clients.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-record-sync-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** The real fsync, noting each call: the file (folder or chunk by name) and when. */
function spiedFsync() {
  const calls = [];
  const fsync = async (fd) => {
    const stat = fs.fstatSync(fd); // throws EBADF if the writer closed the file first
    const name = stat.isDirectory() ? 'folder' : fs.readlinkSync(`/proc/self/fd/${fd}`).split('/').pop();
    calls.push({ name, size: stat.size, at: performance.now() });
    await fsyncFd(fd);
  };
  return { fsync, calls, chunks: () => calls.filter((c) => c.name !== 'folder') };
}

/** The timed sync's delay in these tests: "at once" must be well under it even on a busy machine. */
const SYNC_MS = 1500;

const summary = { v: 1, score: { id: 'x', title: 'X' }, startedAt: Date.now(), endedAt: null, resumes: 0 };
const line = (i) => JSON.stringify({ k: 'env', e: { seq: i, data: { position: { bar: i } } } });

test('within syncMs, not per line; an action at once; each chunk flushed before it is closed, the folder once per chunk', async () => {
  const spy = spiedFsync();
  const errors = [];
  const writer = await openRecordWriter({
    root,
    id: '20261124-000000-sync',
    summary,
    chunkBytes: 4000,
    // Long enough that "at once" (an action) and "within syncMs" stay apart on a busy machine.
    syncMs: SYNC_MS,
    fsync: spy.fsync,
    onError: (e) => errors.push(e),
  });
  // A burst of 50 lines: no fsync while it is written (nothing on the event loop), one within syncMs.
  const t0 = performance.now();
  for (let i = 0; i < 50; i += 1) writer.append(line(i));
  expect(spy.calls).toHaveLength(0);
  await waitFor(() => spy.chunks().length === 1, SYNC_MS + 3000, 'the timed sync');
  expect(spy.chunks()[0]).toMatchObject({ name: '0001.jsonl' });
  expect(spy.chunks()[0].at - t0).toBeGreaterThanOrEqual(SYNC_MS - 10);
  // The folder (the chunk's name in it) is synced once, right after the chunk's first sync.
  await waitFor(() => spy.calls.some((c) => c.name === 'folder'), 2000, "the folder's sync");
  expect(spy.calls.filter((c) => c.name === 'folder')).toHaveLength(1);

  // An action: synced at once, not syncMs later (half of it is plenty for a loaded event loop).
  const before = spy.chunks().length;
  const t1 = performance.now();
  writer.append('{"k":"act","what":"pause"}', { durable: true });
  await waitFor(() => spy.chunks().length === before + 1, 2000, "the action's sync");
  expect(spy.chunks().at(-1).at - t1).toBeLessThan(SYNC_MS / 2);

  // Past chunkBytes the chunk rotates: the full one is fsynced (still open) with everything in it, then gzipped.
  for (let i = 0; i < 60; i += 1) writer.append(line(i));
  await waitFor(() => fs.existsSync(path.join(writer.dir, '0001.jsonl.gz')), 5000, 'the rotated chunk gzipped');
  const lastOfFirst = spy
    .chunks()
    .filter((c) => c.name === '0001.jsonl')
    .at(-1);
  expect(lastOfFirst.size).toBeGreaterThanOrEqual(4000);

  // A clean stop flushes the last chunk before closing it.
  writer.append(line(999));
  const size = fs.statSync(path.join(writer.dir, '0002.jsonl')).size;
  await writer.close();
  expect(spy.chunks().at(-1)).toMatchObject({ name: '0002.jsonl', size });
  expect(spy.calls.filter((c) => c.name === 'folder')).toHaveLength(2);
  expect(errors).toEqual([]);
  expect(writer.syncs()).toBe(spy.chunks().length);
});

test('the recorder of a real show: an operator action is on disk at once, envelopes only within syncMs', async () => {
  const server = await startShow({ autoplay: false });
  const spy = spiedFsync();
  const recorder = await recorderOf(server, root, { syncMs: SYNC_MS, fsync: spy.fsync });
  try {
    // The open entry is durable: one sync at once.
    await waitFor(() => spy.chunks().length === 1, 2000, 'the open entry synced');
    // Beats flow (an envelope each); the tempo action by the operator is synced right after it.
    server.show.engine.play();
    const said = createTransportLog(server.log, server.show.engine, 'console');
    said.transport('play');
    const t = performance.now();
    await waitFor(() => spy.chunks().length >= 2, 2000, "the action's sync");
    expect(spy.chunks()[1].at - t).toBeLessThan(SYNC_MS / 2);
    // Over the next second beats are written but not synced one by one.
    const syncsAfterAction = spy.chunks().length;
    const seq = server.show.stream.seq();
    await new Promise((r) => setTimeout(r, 1000));
    expect(server.show.stream.seq() - seq).toBeGreaterThanOrEqual(1);
    expect(spy.chunks().length - syncsAfterAction).toBeLessThanOrEqual(1);
  } finally {
    await recorder.close();
    await server.close();
  }
});
