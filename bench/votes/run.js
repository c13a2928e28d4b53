// `npm run bench:votes`: a vote storm on a real show (docs/reference/audience-protocol.md#audience-voices). A show server
// (127.0.0.1) mirrors to the edge worker on local workerd; --local WebSocket viewers on the venue
// and --edge viewers on the edge (several shards) all vote within --window ms of the prompt
// opening, one in --repeat-every twice. It reports lost and doubled votes (venue and edge
// separately, against what was sent), the time from the last vote to the complete tally and to
// the final result on the console's live feed, and the beats' push latency before the storm and
// during it, in the same run. Prints a table and writes bench-results/votes.json.
//
//   node bench/votes/run.js [--local 5000] [--edge 5000] [--window 2000] [--capacity 2000]
//                           [--per-process 2500] [--repeat-every 10] [--together] [--out FILE]
//
// The venue's storm and the edge's run one after the other on fresh servers; --together runs
// both audiences in one show.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startShowServer, createLog } from '../../local-server/index.js';
import { startLocalEdge } from '../../edge-worker/scripts/local-edge.js';
import { createSseParser } from '#core/protocol/sse-parser.js';
import { forkWorker } from '../lib/children.js';
import { percentile, round } from '../lib/stats.js';
import { printTable, writeResults } from '../lib/results-file.js';

const VOTERS = fileURLToPath(new URL('./voters.js', import.meta.url));
const RESULTS = fileURLToPath(new URL('../../bench-results/votes.json', import.meta.url));
const TOKEN = randomBytes(18).toString('base64url');
/** The prompt opens at bar 9 (16 s at 120 bpm: the calm period is the beats before it). */
const PROMPT_BAR = 9;
const PROMPT_BEATS = 8;

export function parseArgs(argv) {
  /** @type {{ local: number, edge: number, window: number, capacity: number, perProcess: number, repeatEvery: number, together: boolean, out?: string }} */
  const options = { local: 5000, edge: 5000, window: 2000, capacity: 2000, perProcess: 2500, repeatEvery: 10, together: false };
  if (argv.includes('--together')) {
    options.together = true;
    argv = argv.filter((a) => a !== '--together');
  }
  const out = argv.indexOf('--out');
  if (out >= 0) {
    if (!argv[out + 1]) throw new Error('--out takes a file name');
    options.out = argv[out + 1];
    argv = [...argv.slice(0, out), ...argv.slice(out + 2)];
  }
  const names = {
    '--local': 'local',
    '--edge': 'edge',
    '--window': 'window',
    '--capacity': 'capacity',
    '--per-process': 'perProcess',
    '--repeat-every': 'repeatEvery',
  };
  for (let i = 0; i < argv.length; i += 2) {
    const key = names[argv[i]];
    if (!key) throw new Error(`unknown flag ${argv[i]}: use ${Object.keys(names).join(', ')}`);
    const n = Number(argv[i + 1]);
    if (!Number.isInteger(n) || n < (key === 'local' || key === 'edge' ? 0 : 1)) throw new Error(`${argv[i]} takes a whole number`);
    options[key] = n;
  }
  // Bounded: at most 20,000 viewers per side and a 4 s vote window (the prompt is open 4 s).
  if (options.local > 20_000 || options.edge > 20_000) throw new Error('at most 20,000 viewers per side');
  if (options.window > 3500) throw new Error('--window is at most 3500 ms (the prompt is open 4 s)');
  return options;
}

function writeScore() {
  const dir = mkdtempSync(join(tmpdir(), 'tutti-bench-votes-'));
  const file = join(dir, 'storm.score.json');
  writeFileSync(
    file,
    JSON.stringify({
      format: 'tutti-score/1',
      id: 'vote-storm',
      title: 'Vote storm',
      bars: 40,
      meter: [{ bar: 1, beats: 4, unit: 4 }],
      tempo: [{ at: { bar: 1 }, bpm: 120 }],
      sections: [
        { at: { bar: 1 }, mark: 'A' },
        { at: { bar: 13 }, mark: 'B' },
        { at: { bar: 25 }, mark: 'C' },
      ],
      view: { text: 'Vote storm' },
      prompts: [
        {
          id: 'storm',
          at: { bar: PROMPT_BAR },
          beats: PROMPT_BEATS,
          question: 'Which way?',
          options: [
            { id: 'b', label: 'B', section: 'B' },
            { id: 'c', label: 'C', section: 'C' },
            { id: 'stay', label: 'Stay' },
          ],
        },
      ],
    }),
  );
  return file;
}

/** Follow the console's live feed (GET /api/events) and note when the tally is complete and final. */
async function followConsole(controlUrl, expectedTotal) {
  const seen = { complete: null, final: null, vote: null };
  const controller = new AbortController();
  const res = await fetch(`${controlUrl}/api/events`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: controller.signal });
  const parser = createSseParser((e) => {
    if (e.event !== 'voices') return;
    const vote = JSON.parse(e.data).vote;
    if (!vote) return;
    const t = Date.now();
    if (seen.complete === null && vote.total >= expectedTotal()) seen.complete = t;
    if (seen.final === null && vote.phase === 'closed') {
      seen.final = t;
      seen.vote = vote;
    }
  });
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of /** @type {any} */ (res.body)) parser.push(decoder.decode(chunk, { stream: true }));
    } catch {
      // aborted
    }
  })();
  return { seen, stop: () => controller.abort() };
}

/**
 * One storm on a fresh show server (and a fresh edge when `edgeViewers` > 0).
 * @param {ReturnType<typeof parseArgs>} options
 * @param {number} localViewers
 * @param {number} edgeViewers
 */
async function runCase(options, localViewers, edgeViewers) {
  options = { ...options, local: localViewers, edge: edgeViewers };
  const edgeToken = randomBytes(16).toString('hex');
  const shardCount = Math.max(4, Math.ceil(options.edge / options.capacity) + 1);
  const edge =
    options.edge > 0
      ? await startLocalEdge({
          token: edgeToken,
          persistDir: false,
          vars: { SHARD_CAPACITY: options.capacity, SHARD_COUNT: shardCount },
          direct: true,
        })
      : null;
  const server = await startShowServer({
    scorePath: writeScore(),
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    token: TOKEN,
    log: createLog(),
    edgeUrl: edge?.url ?? null,
    edgeToken: edge ? edgeToken : null,
    stateFile: null,
    logFile: null,
  });
  const workers = [];
  try {
    if (edge) {
      for (let i = 0; i < 100 && !server.status().edge.connected; i += 1) await new Promise((r) => setTimeout(r, 100));
      if (!server.status().edge.connected) throw new Error('the show server did not connect to the edge');
    }
    // Viewers, in processes of at most --per-process sockets each.
    const plan = [];
    for (const [side, count, url] of [
      ['venue', options.local, `${server.audienceUrl.replace(/^http/, 'ws')}/ws`],
      ['edge', options.edge, edge ? `${edge.url.replace(/^http/, 'ws')}/ws` : ''],
    ]) {
      for (let left = count, n = 0; left > 0; n += 1) {
        const share = Math.min(options.perProcess, left);
        plan.push({ side, url, count: share, prefix: `${side[0]}${n}-` });
        left -= share;
      }
    }
    const started = Date.now();
    const connects = [];
    for (const p of plan) {
      const worker = forkWorker(VOTERS, { name: `voters ${p.prefix}` });
      workers.push({ worker, side: p.side });
      connects.push(await worker.request('connect', p, 600_000));
    }
    const connected = { venue: 0, edge: 0, failed: 0 };
    connects.forEach((c, i) => {
      connected[plan[i].side] += c.connected;
      connected.failed += c.failed;
    });
    const connectSeconds = (Date.now() - started) / 1000;
    const expected = { venue: { b: 0, c: 0, stay: 0 }, edge: { b: 0, c: 0, stay: 0 } };
    let armed = false;
    // Until every process has said how many votes it will send, no tally is complete.
    const total = () =>
      armed ? Object.values(expected.venue).reduce((a, b) => a + b, 0) + Object.values(expected.edge).reduce((a, b) => a + b, 0) : Infinity;
    const feed = await followConsole(server.controlUrl, total);

    const playAt = Date.now();
    server.show.engine.play();
    let status = null;
    for (let i = 0; i < 400 && !(status = server.votes.status()); i += 1) await new Promise((r) => setTimeout(r, 100));
    if (!status) throw new Error('the prompt did not open');
    const { key, opens, closes } = status;
    // Every viewer votes within --window ms of the opening.
    const storms = await Promise.all(
      workers.map(({ worker }) =>
        worker.request('storm', {
          key,
          options: ['b', 'c', 'stay'],
          from: opens,
          windowMs: options.window,
          repeatEvery: options.repeatEvery,
        }),
      ),
    );
    storms.forEach((s, i) => {
      for (const [o, n] of Object.entries(s.expected)) expected[workers[i].side][o] += n;
    });
    armed = true;
    // With an edge the result waits for its final count, up to EDGE_WAIT_MS (20 s) after the close.
    for (let i = 0; i < 400 && feed.seen.final === null; i += 1) await new Promise((r) => setTimeout(r, 100));
    const result = server.votes.status();
    // What the edge's root counted in the end (its owners' totals), a few seconds later: tells a
    // late edge total from a lost vote.
    await new Promise((r) => setTimeout(r, 5000));
    const edgeRoot = edge
      ? ((await (await fetch(`${edge.url}/healthz?deep=1`, { headers: { authorization: `Bearer ${edgeToken}` } })).json()).show?.votes ??
        null)
      : null;
    // calm: the beats of bars 3–8 (after the joins settled), storm: from the opening to 1 s after the votes stopped
    const periods = { calm: [playAt + 4000, opens], storm: [opens, opens + options.window + 1000] };
    const reports = await Promise.all(workers.map(({ worker }) => worker.request('report', periods, 120_000)));
    feed.stop();

    const sides = ['venue', 'edge'];
    const counted = Object.fromEntries(
      sides.map((side) => [side, Object.fromEntries((result?.options ?? []).map((o) => [o.id, side === 'venue' ? o.venue : o.edge]))]),
    );
    const lastVoteAt = Math.max(...reports.map((r) => r.lastVoteAt));
    const rows = sides.map((side) => {
      const mine = reports.filter((_, i) => workers[i].side === side);
      const sum = (k) => mine.reduce((a, r) => a + r[k], 0);
      const want = Object.values(expected[side]).reduce((a, b) => a + b, 0);
      const got = Object.values(counted[side] ?? {}).reduce((a, b) => a + b, 0);
      const perOptionOff = Object.keys(expected[side]).map((o) => (counted[side]?.[o] ?? 0) - expected[side][o]);
      // percentile() sorts a typed copy: fine for the ~10^5 samples a run has (no spread of a huge array).
      const calmAll = mine.flatMap((r) => r.calm);
      const stormAll = mine.flatMap((r) => r.storm);
      const calm = { p50: percentile(calmAll, 50), p99: percentile(calmAll, 99) };
      const storm = { p50: percentile(stormAll, 50), p99: percentile(stormAll, 99) };
      return {
        side,
        viewers: connected[side],
        voted: want,
        sent: sum('votesSent'),
        ok: sum('ok'),
        counted: got,
        lost: perOptionOff.reduce((a, d) => a + Math.max(0, -d), 0),
        doubled: perOptionOff.reduce((a, d) => a + Math.max(0, d), 0),
        refused: mine.reduce((a, r) => a + Object.values(r.refused).reduce((x, y) => x + y, 0), 0),
        reasons: JSON.stringify(
          mine.reduce((acc, r) => {
            for (const [k, n] of Object.entries(r.refused)) acc[k] = (acc[k] ?? 0) + n;
            return acc;
          }, {}),
        ),
        calmP50: calm.p50,
        calmP99: calm.p99,
        stormP50: storm.p50,
        stormP99: storm.p99,
        closes: sum('unexpectedCloses'),
      };
    });
    const summary = {
      when: new Date().toISOString(),
      machine: { cpus: cpus().length, load: loadavg().map((l) => round(l)) },
      options,
      connectSeconds: round(connectSeconds, 1),
      shards: shardCount,
      key,
      promptOpenMs: round(closes - opens),
      lastVoteAfterOpenMs: round(lastVoteAt - opens),
      consoleTallyCompleteAfterLastVoteMs: feed.seen.complete === null ? null : feed.seen.complete - lastVoteAt,
      consoleResultAfterLastVoteMs: feed.seen.final === null ? null : feed.seen.final - lastVoteAt,
      result: feed.seen.vote
        ? {
            counts: feed.seen.vote.options.map((o) => [o.id, o.count]),
            total: feed.seen.vote.total,
            winner: feed.seen.vote.winner,
            branch: feed.seen.vote.branch,
            edge: feed.seen.vote.edge ?? null,
          }
        : null,
      resultAfterCloseMs: result?.finalAt ? round(result.finalAt - closes) : null,
      edgeRoot,
      rows,
    };
    return summary;
  } finally {
    await Promise.allSettled(workers.map(({ worker }) => worker.stop()));
    await server.close();
    await edge?.stop();
  }
}

/**
 * @param {any} summary
 * @param {import('../lib/results-file.js').PrintedTable[]} tables
 */
function print(summary, tables) {
  const rows = summary.rows.filter((r) => r.viewers > 0);
  printTable(
    tables,
    'vote storm: votes counted, and beat push latency (ms) calm and during the storm',
    [
      { key: 'side', label: 'viewers on' },
      { key: 'viewers', label: 'viewers' },
      { key: 'voted', label: 'voters' },
      { key: 'sent', label: 'frames sent' },
      { key: 'ok', label: 'answered ok' },
      { key: 'counted', label: 'counted' },
      { key: 'lost', label: 'lost' },
      { key: 'doubled', label: 'doubled' },
      { key: 'calmP50', label: 'beat p50 calm' },
      { key: 'calmP99', label: 'beat p99 calm' },
      { key: 'stormP50', label: 'beat p50 storm' },
      { key: 'stormP99', label: 'beat p99 storm' },
    ],
    rows,
  );
  console.log(
    `prompt open ${summary.promptOpenMs} ms; last vote ${summary.lastVoteAfterOpenMs} ms after it opened; connect ${summary.connectSeconds} s${summary.options.edge ? ` (${summary.shards} shard slots)` : ''}`,
  );
  console.log(
    `console: tally complete ${summary.consoleTallyCompleteAfterLastVoteMs ?? '-'} ms after the last vote; final result ${summary.consoleResultAfterLastVoteMs ?? '-'} ms after it, ${summary.resultAfterCloseMs ?? '-'} ms after the close (votes stop 300 ms after the close${summary.options.edge ? `; the result waits for the edge's final count, sealed 3 s after it: ${summary.result?.edge ?? '-'}` : ''})`,
  );
  console.log(`result: ${JSON.stringify(summary.result)}`);
  if (summary.edgeRoot)
    console.log(
      `the edge's root, 5 s after the result: ${JSON.stringify({ sealed: summary.edgeRoot.seal?.last ?? null, running: { counts: summary.edgeRoot.counts, total: summary.edgeRoot.total }, owners: summary.edgeRoot.owners, reports: summary.edgeRoot.reports })}`,
    );
  if (rows.some((r) => r.refused > 0)) console.log(`refusals: ${rows.map((r) => `${r.side} ${r.reasons}`).join(', ')}`);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  // The venue's storm and the edge's, one after the other on fresh servers (this machine's two
  // cores carry the viewers, the server and workerd); --together runs both at once.
  const cases = options.together
    ? [[options.local, options.edge]]
    : [
        [options.local, 0],
        [0, options.edge],
      ].filter(([l, e]) => l + e > 0);
  const summaries = [];
  const tables = [];
  for (const [local, edgeViewers] of cases) {
    console.log(
      `\n== ${local ? `${local} venue viewers` : ''}${local && edgeViewers ? ' + ' : ''}${edgeViewers ? `${edgeViewers} edge viewers` : ''} ==`,
    );
    const summary = await runCase(options, local, edgeViewers);
    print(summary, tables);
    summaries.push(summary);
  }
  const file = options.out ?? RESULTS;
  writeResults(file, { script: 'bench:votes', tables, data: { summaries } });
  console.log(
    `\nbeat latency = receive − envelope t of every beat delta (ms), before the prompt (calm) and from its opening to 1 s after the last vote (storm); written to ${file}`,
  );
  if (summaries.some((s) => s.rows.some((r) => r.viewers > 0 && (r.lost > 0 || r.doubled > 0 || r.counted !== r.voted))))
    process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(`bench:votes: ${err.message}`);
    process.exit(1);
  });
}
