// `tutti serve` as the interoperability suites run it (docs/reference/test-suites.md#suites-beyond-npm-test): a
// real child process with the musicians' --osc / --osc-in flags, its control API, and the moment
// each beat sounds as a viewer on /ws sees it (`position.at`), against which a tool's beats are
// measured. One set of shows per test file; its afterAll calls cleanUp.

import { openWs, waitFor } from '../support/clients.js';
import { beatErrors, medianOf, recalibrateWallClock } from '../support/osc-receivers.js';
import { serveProcesses } from '../support/serve-process.js';

export const INTEROP_TOKEN = 'interop-token-0123456789';
/** The suites play at 240 bpm: 16 beats in 4 s. */
const BPM = 240;

/**
 * @typedef {{ name: string, received: Array<{ address: string, args: number[], at: number }> }} BeatReader
 *   a tool's messages with the moment it acted on each (only `/tutti/beat` is read)
 */

/** The shows of one test file. */
export function interopShows() {
  const processes = serveProcesses({ token: INTEROP_TOKEN, prefix: 'tutti-interop-' });

  /**
   * `tutti serve` as a musician's show runs it; resolves with its URLs once it listens.
   * @param {string[]} flags
   */
  async function serve(flags) {
    const server = await processes.serve(['--no-resume', '--no-log-file', ...flags]);
    return { audienceUrl: server.audience, controlUrl: server.control, output: server.output, stop: server.stop };
  }

  /**
   * POST to the control API; resolves with the JSON answer.
   * @param {{ controlUrl: string }} server
   * @param {string} path
   * @param {unknown} body
   */
  const control = (server, path, body) =>
    fetch(`${server.controlUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${INTEROP_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json());

  /**
   * GET /api/status.
   * @param {{ controlUrl: string }} server
   */
  const status = async (server) =>
    (await fetch(`${server.controlUrl}/api/status`, { headers: { authorization: `Bearer ${INTEROP_TOKEN}` } })).json();

  /**
   * Play a show at 240 bpm with `oscFlags` until every reader has `beats` beats of it, then stop
   * it. Each reader's error per beat (when it acted − when the beat sounds; negative: early), in
   * the order given. With `until`, play until it is true instead and return what there is.
   * @param {string[]} oscFlags
   * @param {BeatReader[]} readers
   * @param {number} beats
   * @param {{ until?: (soundsAt: Map<string, number>) => boolean }} [options]
   * @returns {Promise<number[][]>}
   */
  async function playBeats(oscFlags, readers, beats, { until } = {}) {
    // The tools' moments are read on this process's clock, the beats' on the server's Date.now().
    recalibrateWallClock();
    const server = await serve(oscFlags);
    const viewer = await openWs(/** @type {string} */ (server.audienceUrl));
    /** @type {Map<string, number>} "bar:beat" → when it sounds */
    const soundsAt = new Map();
    viewer.ws.on('message', () => {
      const s = viewer.tracker.state;
      if (s?.transport === 'playing') soundsAt.set(`${s.position.bar}:${s.position.beat}`, s.position.at);
    });
    try {
      await control(server, '/api/tempo', { bpm: BPM });
      await control(server, '/api/transport', { action: 'play' });
      if (until) await waitFor(() => until(soundsAt), 20_000, 'the show to play');
      else
        for (const reader of readers)
          await waitFor(() => beatErrors(reader.received, soundsAt).length >= beats, 20_000, `${beats} beats in ${reader.name}`);
      return readers.map((reader) => beatErrors(reader.received, soundsAt));
    } finally {
      viewer.ws.close();
      await server.stop();
    }
  }

  return { serve, control, status, playBeats, cleanUp: processes.cleanUp };
}

/** The error of the beat furthest from its time, with its sign. */
export const worstError = (/** @type {number[]} */ errors) => errors.reduce((w, e) => (Math.abs(e) > Math.abs(w) ? e : w), 0);

/**
 * The table a suite prints at its end: each case's median and worst beat error per tool.
 * @returns {{ record: (caseName: string, tool: string, errors: number[]) => void, print: () => void }}
 */
export function beatTimingTable() {
  /** @type {string[]} */
  const rows = [];
  return {
    record(caseName, tool, errors) {
      const median = errors.length ? medianOf(errors).toFixed(1) : '-';
      const worst = errors.length ? worstError(errors).toFixed(1) : '-';
      rows.push(
        `  ${caseName.padEnd(14)} ${tool.padEnd(14)} median ${median.padStart(7)} ms   worst ${worst.padStart(7)} ms   (${errors.length} beats)`,
      );
    },
    print() {
      if (rows.length) process.stdout.write(`\nOSC beat timing against position.at (negative: early)\n${rows.join('\n')}\n`);
    },
  };
}
