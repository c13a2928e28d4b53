// Bad notation never stops the show (docs/reference/notation.md#what-is-engraved): an .mxl zip
// bomb and a DOCTYPE declaring entities are refused by the readers with one sentence, a notation
// edited since the import is refused with the bar where it parts from the score; the JSON route
// says why, /api/status shows it, and the show plays on meanwhile.
import { afterEach, beforeEach, expect, test } from '@jest/globals';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { CORPUS_XML, importInto, startNotationServer, tempFolder } from '../support/notation-server.js';

let folder;
let running;
let volta;
beforeEach(async () => {
  folder = await tempFolder();
  volta = await importInto(path.join(CORPUS_XML, 'test_repeat_volta_simple.musicxml'), folder.dir);
});
afterEach(async () => {
  await running?.server.close();
  running = undefined;
  await folder.close();
});

/** Point the score at `name`, holding `bytes`, and start a server on it. */
async function serveWith(name, bytes) {
  await writeFile(path.join(folder.dir, name), bytes);
  const score = JSON.parse(await readFile(volta.scorePath, 'utf8'));
  await writeFile(volta.scorePath, JSON.stringify({ ...score, notation: name }));
  running = await startNotationServer({ scorePath: volta.scorePath, cacheDir: path.join(folder.dir, 'cache') });
  // The show plays while the notation is read.
  expect((await running.control('/api/transport', { method: 'POST', body: '{"action":"play"}' })).status).toBe(200);
  await running.server.notation.settled();
}

async function expectRefused(status, error, message) {
  const res = await fetch(`${running.base}/piano.json`);
  expect({ status: res.status, body: await res.json() }).toEqual({ status, body: { error, message: expect.stringMatching(message) } });
  const state = await (await running.control('/api/status')).json();
  expect(state.notation).toMatchObject({ error: expect.stringMatching(message) });
  expect(state.transport).toBe('playing');
  return state;
}

test('an .mxl zip bomb is refused before it is unpacked; the show plays on', async () => {
  const bomb = zipSync({
    'META-INF/container.xml': strToU8('<container><rootfiles><rootfile full-path="score.xml"/></rootfiles></container>'),
    'score.xml': new Uint8Array(64 * 1024 * 1024),
  });
  expect(bomb.length).toBeLessThan(1024 * 1024);
  await serveWith('bomb.mxl', bomb);
  const state = await expectRefused(422, 'NOTATION_FAILED', /score\.xml unpacks to 64 MB, more than the 32 MB Tutti reads/);
  expect(state.notation.state).toBe('failed');
  expect(running.lines).toContainEqual(expect.stringMatching(/^warn notation: bomb\.mxl cannot be engraved/));
}, 30_000);

test('a DOCTYPE that declares entities is refused', async () => {
  const xml = (await readFile(volta.notation, 'utf8')).replace(
    /<score-partwise/,
    `<!DOCTYPE score-partwise [<!ENTITY a "${'a'.repeat(100)}"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<score-partwise`,
  );
  await serveWith('entities.musicxml', xml);
  await expectRefused(422, 'NOTATION_FAILED', /declares XML entities \(<!ENTITY>\), which MusicXML never needs; refused/);
}, 30_000);

test('a notation edited since the import is refused, never mapped onto the wrong bars', async () => {
  // Without its repeat the piece plays 1 and the 1st ending only: 2 bars, where the score has 4.
  const edited = (await readFile(volta.notation, 'utf8')).replace('<repeat direction="backward"/>', '');
  await serveWith('edited.musicxml', edited);
  await expectRefused(409, 'NOTATION_MISMATCH', /the notation plays 2 bars and the score has 4: edited\.musicxml was changed since/);
  // Its pages are still there to look at.
  expect((await fetch(`${running.base}/piano/1.svg`)).status).toBe(200);
}, 30_000);
