// What the performance record writes, by source (local-server/src/record/): the log's warnings
// and errors, each once and only those after the record opened (sample-entries.js, on a real
// show server and real files); a closed vote round as one `vote` entry and its branch as one
// `act` entry, with the desk's counts while it holds the round (vote-entries.js).
import { afterAll, expect, test } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readRecord } from '../../../local-server/src/record/record-reader.js';
import { createVoteEntries } from '../../../local-server/src/record/vote-entries.js';
import { startShow } from '../../support/show.js';
import { recorderOf } from '../../support/recorder.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-record-entries-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test("the log's warnings and errors since the record opened, each once, with the log's own time", async () => {
  const server = await startShow({ autoplay: false });
  try {
    server.log.warn('before the record: not the show’s');
    const recorder = await recorderOf(server, root);
    server.log.info('an info line is not a problem');
    server.log.warn('first warning');
    server.log.error('an error');
    await recorder.sample();
    server.log.warn('second warning');
    await recorder.close(); // a clean stop takes a last sample
    const { entries } = readRecord(recorder.dir);
    const logged = entries.filter((e) => e.k === 'log');
    expect(logged.map((e) => [e.level, e.msg])).toEqual([
      ['warn', 'first warning'],
      ['error', 'an error'],
      ['warn', 'second warning'],
    ]);
    const kept = server.log.recent().find((e) => e.msg === 'an error');
    expect(logged[1].wall).toBe(kept.t);
    expect(entries.filter((e) => e.k === 'sample')).toHaveLength(2);
  } finally {
    await server.close();
  }
});

test('a closed round is one vote entry (the desk’s counts while it holds it) and its branch one act entry', () => {
  const round = {
    id: 'path',
    key: 'k1',
    q: 'Which way?',
    options: [
      { id: 'a', label: 'A' },
      { id: 'd', label: 'D' },
    ],
    counts: [1, 2],
    total: 3,
    winner: 'd',
    closed: false,
  };
  let state = { vote: round };
  let desk = {
    key: 'k1',
    options: [
      { id: 'a', count: 4 },
      { id: 'd', count: 9 },
    ],
    edge: { total: 10 },
  };
  const show = /** @type {any} */ ({ stream: { state: () => state } });
  const votes = { status: () => desk };
  const written = [];
  const follow = createVoteEntries({ show, votes, write: (e) => written.push(e) });

  follow(); // still open: nothing
  expect(written).toEqual([]);
  state = { vote: { ...round, closed: true } };
  follow();
  follow(); // the same round again: nothing more
  expect(written).toEqual([
    { k: 'vote', id: 'path', key: 'k1', q: 'Which way?', options: desk.options, total: 3, winner: 'd', branch: null, edge: { total: 10 } },
  ]);
  // The branch is taken later in the same round: one act entry, once.
  state = { vote: { ...round, closed: true, branch: { bar: 5, at: 16 } } };
  follow();
  follow();
  expect(written.slice(1)).toEqual([{ k: 'act', by: 'vote', kind: 'branch', what: 'branch at bar 5: d won "path"', at: 16 }]);

  // A round the desk no longer holds: the counts the phones saw, no edge figures; rehearsal said so.
  desk = { key: 'other' };
  state = { vote: { ...round, key: 'k2', closed: true, rehearsal: true } };
  follow();
  expect(written[2]).toMatchObject({
    k: 'vote',
    key: 'k2',
    options: [
      { id: 'a', label: 'A', count: 1 },
      { id: 'd', label: 'D', count: 2 },
    ],
    edge: null,
    rehearsal: true,
  });
  // The desk's own round comes first when it has one (rehearsal mode: phones do not see it).
  const withDesk = [];
  const followDesk = createVoteEntries({
    show,
    votes: { status: () => null, voteState: () => ({ ...round, key: 'k3', closed: true }) },
    write: (e) => withDesk.push(e),
  });
  followDesk();
  expect(withDesk).toHaveLength(1);
  expect(withDesk[0]).toMatchObject({ k: 'vote', key: 'k3', edge: null });
});
