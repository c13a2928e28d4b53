// The engraver's worker (docs/reference/notation.md#the-cache): a job that takes too long is
// answered with a sentence and its worker ended; the next job gets a fresh worker, untouched by
// the old one's exit; closing rejects what is still queued.
import { expect, test } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngraver } from '../../local-server/src/notation/engraver.js';
import { CORPUS_XML, tempFolder } from '../support/notation-server.js';

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

// A process where one can be forked (tutti serve); a worker thread in the desktop app's utility
// process, which cannot fork (engrave-host.js).
test.each(['process', 'thread'])('in time, in a %s: the engraving reads the notation as the importer counts it', async (host) => {
  const bytes = new Uint8Array(await readFile(path.join(CORPUS_XML, 'test_repeat_volta_simple.musicxml')));
  const engraver = createEngraver({ host: /** @type {any} */ (host) });
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
    expect(engraver.hostKind()).toBe(host);
  } finally {
    await engraver.close();
  }
});

test('a multi-bar rest is drawn bar by bar, so every bar has its own box', async () => {
  const folder = await tempFolder();
  const note = '<note><pitch><step>C</step><octave>5</octave></pitch><duration>4</duration><type>whole</type></note>';
  const rest = '<note><rest measure="yes"/><duration>4</duration></note>';
  const xml = `<?xml version="1.0"?><score-partwise version="3.1"><part-list><score-part id="P1"><part-name>Flute</part-name></score-part></part-list><part id="P1">
<measure number="1"><attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes>${note}</measure>
<measure number="2"><attributes><measure-style><multiple-rest>3</multiple-rest></measure-style></attributes>${rest}</measure>
<measure number="3">${rest}</measure><measure number="4">${rest}</measure><measure number="5">${note}</measure></part></score-partwise>`;
  const engraver = createEngraver();
  try {
    const meta = await engraver.run({
      type: 'engrave',
      hash: 'multi-rest',
      bytes: new TextEncoder().encode(xml),
      name: 'flute.musicxml',
      xmlId: 'P1',
      layout: 'tablet-landscape',
      dir: folder.dir,
      key: 'flute',
    });
    expect(meta.error).toBeUndefined();
    expect(meta.boxes).toHaveLength(5);
    const xs = meta.boxes.map((b) => b.x);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    expect(new Set(xs).size).toBe(5);
  } finally {
    await engraver.close();
    await folder.close();
  }
});

test('a file whose parts disagree in length is refused with that reason, not blamed on Verovio', async () => {
  const folder = await tempFolder();
  const bar = (n) =>
    `<measure number="${n}">${n === 1 ? '<attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time></attributes>' : ''}<note><rest/><duration>4</duration></note></measure>`;
  const bars = (count) => Array.from({ length: count }, (_, i) => bar(i + 1)).join('');
  // As music21 writes a MIDI file's tracks: the oboe two bars longer than the flute.
  const xml = `<?xml version="1.0"?><score-partwise version="4.0"><part-list><score-part id="P1"><part-name>Flute</part-name></score-part><score-part id="P2"><part-name>Oboe</part-name></score-part></part-list><part id="P1">${bars(4)}</part><part id="P2">${bars(6)}</part></score-partwise>`;
  const engraver = createEngraver();
  const job = (xmlId, key) => ({
    type: /** @type {const} */ ('engrave'),
    hash: 'uneven',
    bytes: new TextEncoder().encode(xml),
    name: 'uneven.musicxml',
    xmlId,
    layout: 'tablet-landscape',
    dir: folder.dir,
    key,
  });
  try {
    expect((await engraver.run(job('P1', 'flute'))).error).toBeUndefined();
    const oboe = await engraver.run(job('P2', 'oboe'));
    expect(oboe.error).toMatch(/a part of this MusicXML has 6 measures where its first part has 4: the file's parts disagree/);
    expect((await engraver.run(job('all', 'all'))).error).toMatch(/has 6 measures where its first part has 4/);
  } finally {
    await engraver.close();
    await folder.close();
  }
});

/** A field of every thread's /proc/<pid>/task/<tid>/stat, by its number in proc(5) (19 nice, 41 policy). */
function threadStat(pid, field) {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[field - 3]);
  });
}
const threadNice = (pid) => threadStat(pid, 19);
const SCHED_IDLE = 5;

// docs/results.md#the-notation-goals: V8's helper threads compiling Verovio ran at the show's
// priority when the engraver was a thread of the show's process.
(existsSync('/proc/self/task') ? test : test.skip)(
  "every thread of the engraving runs at the lowest priority, in a process of its own; the show's threads keep theirs",
  async () => {
    const bytes = new Uint8Array(await readFile(path.join(CORPUS_XML, 'test_repeat_volta_simple.musicxml')));
    const engraver = createEngraver();
    try {
      await engraver.run({ type: 'inspect', hash: 'h', bytes, name: 'volta.musicxml' });
      const pid = engraver.processId();
      expect(pid).not.toBe(process.pid);
      const nice = threadNice(pid);
      expect(nice.length).toBeGreaterThan(3); // V8's helper threads are there, not only the main one
      expect(new Set(nice)).toEqual(new Set([19]));
      // Where util-linux's chrt is, the idle scheduling class: it gives way to the show at once.
      if (existsSync('/usr/bin/chrt') || existsSync('/bin/chrt')) expect(new Set(threadStat(pid, 41))).toEqual(new Set([SCHED_IDLE]));
      expect(new Set(threadNice(process.pid))).toEqual(new Set([0]));
    } finally {
      await engraver.close();
    }
  },
);
