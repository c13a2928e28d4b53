// A show server playing a score imported from a MusicXML file (so it names its notation), with
// its own notation cache folder and a log kept in memory: for the notation suites (test/notation/).

import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importToFile } from '../../local-server/src/import/import-to-file.js';
import { createLog } from '../../local-server/src/logs/log.js';
import { startShowServer } from '../../local-server/src/server.js';

/** The committed MusicXML corpus (test/fixtures/corpus/SOURCES.md says where each file is from). */
export const CORPUS_XML = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'corpus', 'musicxml');

/**
 * A fresh folder for a test's scores and cache; `close()` removes it.
 * @returns {Promise<{ dir: string, close: () => Promise<void> }>}
 */
export async function tempFolder() {
  const dir = await mkdtemp(path.join(tmpdir(), 'tutti-notation-'));
  return { dir, close: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Import `file` (copied into `dir`) to a score beside it, as `tutti import` does.
 * @param {string} file
 * @param {string} dir
 * @returns {Promise<{ scorePath: string, notation: string, score: Record<string, any> }>}
 */
export async function importInto(file, dir) {
  const input = path.join(dir, path.basename(file));
  if (path.resolve(file) !== input) await copyFile(file, input);
  const { target, score } = await importToFile({ file: input, force: true });
  return { scorePath: target, notation: input, score };
}

/**
 * Start a server on 127.0.0.1 (ports 0) playing `scorePath`, caching engravings in `cacheDir`.
 * @param {{ scorePath: string, cacheDir: string } & Partial<import('../../local-server/src/server.js').ShowServerOptions>} options
 *   the rest: more startShowServer options (OSC targets, autoplay)
 */
export async function startNotationServer({ scorePath, cacheDir, ...more }) {
  /** @type {string[]} */
  const lines = [];
  const log = createLog({ print: (level, message) => lines.push(`${level} ${message}`) });
  const token = 'notation-test-token';
  const server = await startShowServer({
    scorePath,
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    token,
    notationCacheDir: cacheDir,
    log,
    ...more,
  });
  const base = `${server.audienceUrl}/part/${server.partKey}/notation`;
  const control = (route, init = {}) =>
    fetch(`${server.controlUrl}${route}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
    });
  return { server, base, lines, control };
}

/**
 * For the suite or describe block it is called in: a corpus file imported into a fresh folder
 * (the score changed by `edit` first), a notation server playing it, engraved before the tests
 * (unless `settle` is false), and both gone after them.
 * @param {string} file a file of CORPUS_XML
 * @param {{ edit?: (score: Record<string, any>) => void, settle?: boolean }} [options]
 * @returns {{ readonly running: Awaited<ReturnType<typeof startNotationServer>> }}
 */
export function useCorpusNotationServer(file, { edit, settle = true } = {}) {
  /** @type {Awaited<ReturnType<typeof tempFolder>> | undefined} */
  let folder;
  /** @type {Awaited<ReturnType<typeof startNotationServer>> | undefined} */
  let running;
  beforeAll(async () => {
    folder = await tempFolder();
    const { scorePath, score } = await importInto(path.join(CORPUS_XML, file), folder.dir);
    if (edit) {
      edit(score);
      await writeFile(scorePath, JSON.stringify(score));
    }
    running = await startNotationServer({ scorePath, cacheDir: path.join(folder.dir, 'cache') });
    if (settle) await running.server.notation.settled();
  }, 120_000);
  afterAll(async () => {
    await running?.server.close();
    await folder?.close();
  });
  return {
    get running() {
      if (!running) throw new Error('the notation server has not started (use it inside a test)');
      return running;
    },
  };
}
