// The engraver's worker (docs/reference/notation.md#the-cache): a job that takes too long is
// answered with a sentence and its worker ended; the next job gets a fresh worker, untouched by
// the old one's exit; closing rejects what is still queued.
import { expect, test } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngraver } from '../../local-server/src/notation/engraver.js';
import { CORPUS_XML } from '../support/notation-server.js';

test('too slow: a sentence, a fresh worker for the next job, queued jobs rejected on close', async () => {
  const bytes = new Uint8Array(await readFile(path.join(CORPUS_XML, 'test_repeat_volta_simple.musicxml')));
  const started = [];
  const engraver = createEngraver({ onJob: (job) => started.push(job.type) });
  const job = { type: /** @type {const} */ ('inspect'), hash: 'h', bytes, name: 'volta.musicxml' };
  try {
    await expect(engraver.run(job, { timeLimitMs: 1 })).rejects.toThrow('engraving took more than 1 ms; stopped');
    // The next job runs on a fresh worker; the first one's exit (after it) is not this job's failure.
    await expect(engraver.run(job)).resolves.toMatchObject({ written: 3 });
    expect(started).toEqual(['inspect', 'inspect']);
    expect(engraver.pending()).toBe(0);
  } finally {
    await engraver.close();
  }
  await expect(engraver.run(job)).rejects.toThrow('the server is closing');
});

test('in time: the worker reads the notation as the importer counts it', async () => {
  const bytes = new Uint8Array(await readFile(path.join(CORPUS_XML, 'test_repeat_volta_simple.musicxml')));
  const engraver = createEngraver();
  try {
    const read = await engraver.run({ type: 'inspect', hash: 'h', bytes, name: 'volta.musicxml' });
    expect(read).toEqual({
      parts: [{ xmlId: 'P1', id: 'piano', name: 'Piano' }],
      written: 3,
      order: [
        [0, 1],
        [1, 1],
        [0, 2],
        [2, 1],
      ],
      printed: [1, 2, 3],
    });
  } finally {
    await engraver.close();
  }
});
