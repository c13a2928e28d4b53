// The console's import runs on a worker thread: while a large MusicXML file is read, the show
// server keeps answering (and sending beats) instead of stalling for the seconds the parse takes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startShowServer } from '../../local-server/src/server.js';

const TOKEN = 'import-worker-token';

/** A 4-part MusicXML file of `count` 4/4 measures of quarter notes (about 2 KB a measure). */
function bigScore(count) {
  const measure = (i) =>
    `<measure number="${i + 1}"><attributes><divisions>4</divisions>${i === 0 ? '<time><beats>4</beats><beat-type>4</beat-type></time>' : ''}</attributes>${'<note><pitch><step>C</step><octave>4</octave></pitch><duration>4</duration><type>quarter</type></note>'.repeat(4)}</measure>`;
  const measures = Array.from({ length: count }, (_, i) => measure(i)).join('');
  const ids = [1, 2, 3, 4];
  return `<?xml version="1.0"?><score-partwise><part-list>${ids.map((p) => `<score-part id="P${p}"><part-name>Part ${p}</part-name></score-part>`).join('')}</part-list>${ids.map((p) => `<part id="P${p}">${measures}</part>`).join('')}</score-partwise>`;
}

test('the show server keeps answering while the console imports a large file', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'tutti-import-worker-'));
  const server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token: TOKEN, autoplay: true });
  try {
    const file = path.join(dir, 'big.musicxml');
    await writeFile(file, bigScore(1500));
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const started = Date.now();
    const importing = fetch(`${server.controlUrl}/api/score/import`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ path: file }),
    }).then((r) => r.json());
    let done = false;
    importing.finally(() => {
      done = true;
    });
    // Ask for the status every 50 ms while the import runs; each answer's wait is measured.
    const waits = [];
    while (!done && Date.now() - started < 60_000) {
      const t0 = Date.now();
      await fetch(`${server.controlUrl}/api/status`, { headers });
      waits.push(Date.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const result = await importing;
    const took = Date.now() - started;
    expect(result).toMatchObject({ ok: true, score: { bars: 1500 } });
    expect(waits.length).toBeGreaterThan(3);
    // The parse takes seconds on one core; on the event loop it would hold every answer that long.
    expect(Math.max(...waits)).toBeLessThan(Math.max(400, took / 3));
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}, 90_000);
