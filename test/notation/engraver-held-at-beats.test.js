// The show server holds its engraving process still around each beat (docs/reference/osc.md#beats-while-the-score-engraves):
// a real server playing at 400 bpm to a real OSC receiver while it engraves a corpus file; the
// engraving process is seen stopped (state T in /proc) while it works, and running again after.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { arrivalReceiver } from '../support/osc-receivers.js';
import { CORPUS_XML, importInto, startNotationServer, tempFolder } from '../support/notation-server.js';

/** This process's children running the engraver (Linux /proc), with their state letter. */
function engravers() {
  const children = readdirSync('/proc/self/task').flatMap((tid) =>
    readFileSync(`/proc/self/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return children.flatMap((pid) => {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('engrave-thread.js')) return [];
      return [{ pid, state: readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0] }];
    } catch {
      return []; // ended meanwhile
    }
  });
}

(existsSync('/proc/self/task') ? test : test.skip)(
  'while it engraves, the engraving process is stopped around the beats and goes on between them',
  async () => {
    const folder = await tempFolder();
    const receiver = await arrivalReceiver();
    const { scorePath } = await importInto(path.join(CORPUS_XML, 'Dichterliebe01.xml'), folder.dir);
    const { server } = await startNotationServer({
      scorePath,
      cacheDir: path.join(folder.dir, 'cache'),
      autoplay: true,
      oscTargets: [{ host: '127.0.0.1', port: receiver.port }],
    });
    try {
      server.show.engine.setTempo(400);
      const seen = new Set();
      let settled = false;
      void server.notation.settled().then(() => (settled = true));
      // Sample the engraver's state on every turn of the event loop until the engraving is done.
      while (!settled) {
        for (const { state } of engravers()) seen.add(state);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(receiver.received.length).toBeGreaterThan(3); // beats were being sent meanwhile
      expect(seen).toContain('T'); // held still around a beat
      expect([...seen].some((state) => state === 'R' || state === 'S')).toBe(true); // and working between them
      expect(engravers().every(({ state }) => state !== 'T')).toBe(true); // never left stopped
    } finally {
      await server.close();
      receiver.close();
      await folder.close();
    }
  },
);
