// Command line of the fan-out benchmark → a plan of cases. Every problem is reported at once,
// in words a developer can act on.

import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DEFAULT_SCORE = `${ROOT}scores/union-rose-load.score.json`;
export const DEFAULT_OUT = `${ROOT}bench-results/fanout.json`;
export const FULL_CASES = 'ws:1000,ws:5000,ws:10000,sse:2000,poll:2000,longpoll:2000,hold:10000';
export const QUICK_CASES = 'ws:200,sse:200,poll:200,longpoll:200';
export const IMPLS = ['ours', 'ours-pieces', 'naive', 'naive-delta', 'proto-split', 'proto-single'];
const TRANSPORTS = ['ws', 'lean', 'sse', 'poll', 'longpoll', 'hold'];

export const USAGE = `Usage: node bench/fanout/run.js [flags]

Fan-out benchmark: the real show server (and a naive ws baseline) pushing the load-test score
to N viewers in separate client processes, all on 127.0.0.1.

  --cases LIST        comma-separated TRANSPORT:N (default ${FULL_CASES})
                      ws = WebSocket (ours and the baselines in --impls), sse = Server-Sent Events,
                      poll = GET /poll every --poll-interval ms (like ZScore), longpoll = /poll?wait=,
                      lean = WebSocket on /ws?stream=lean (no per-beat deltas, compressed once; ours only),
                      hold = WebSocket held for --hold seconds, one run, ours only
  --impls LIST        implementations for ws cases (default ours,naive): ours, ours-pieces (ours
                      with the flywheel's next chunk in pieces, startShowServer aheadPieces), naive, naive-delta
                      (naive loop sending the engine's deltas, chunks whole), proto-split / proto-single (prototype:
                      pre-framed fan-out in 2 / 1 processes sharing the port, bench/fanout/proto)
  --duration S        measurement window per run, seconds (default 30; quick 5)
  --runs N            runs per case and implementation; the table shows medians (default 3; quick 1)
  --hold S            length of the hold case, seconds (default 120); adds hold:10000 when no
                      hold case is listed; --hold 0 drops hold cases
  --quick             smoke run: ${QUICK_CASES}, 5 s, 1 run, no hold
  --per-process N     viewers per client process, at most 9000 (default 5000)
  --batch N           connections each client process opens at once while ramping (default 250)
  --ramp-timeout S    stop opening connections after S seconds and measure those open (default 120)
  --max-other-cpu PCT a run during which other processes used more than PCT % of a core is
                      repeated (default 50)
  --busy-retries N    how many times such a run is repeated at most (default 2; quick 0)
  --poll-interval MS  interval of the poll case (default 500)
  --long-poll-wait MS wait= of the longpoll case (default 20000)
  --quiet-wait S      before each run, wait up to S seconds for the machine to be quiet (other
                      processes below --quiet-cpu % of a core); default 120, quick 0
  --quiet-cpu PCT     what counts as quiet (default 25)
  --max-rss-mb MB     abort a run whose server RSS exceeds this (default 4096)
  --profile DIR       write a V8 CPU profile of every server worker to DIR (see where time goes)
  --score FILE        score to play (default scores/union-rose-load.score.json)
  --out FILE          JSON results (default bench-results/fanout.json)
  --from-json FILE    print the report of an earlier run's JSON and exit
  --help
`;

/**
 * @typedef {{ label: string, transport: 'ws' | 'lean' | 'sse' | 'poll' | 'longpoll', clients: number, impls: string[], duration: number, runs: number, hold: boolean }} Case
 * @typedef {{ cases: Case[], score: string, out: string, perProcess: number, batch: number, pollIntervalMs: number,
 *   longPollWaitMs: number, maxRssBytes: number, quietWaitMs: number, quietCpuPct: number, profileDir: string | null, fromJson: string | null, rampTimeoutMs: number, maxOtherCpuPct: number, busyRetries: number, quick: boolean, duration: number, runs: number, help: boolean }} Plan
 */

/**
 * @param {string[]} argv
 * @returns {{ plan: Plan | null, problems: string[] }}
 */
export function parsePlan(argv) {
  const problems = [];
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        cases: { type: 'string' },
        impls: { type: 'string' },
        duration: { type: 'string' },
        runs: { type: 'string' },
        hold: { type: 'string' },
        quick: { type: 'boolean', default: false },
        'per-process': { type: 'string' },
        batch: { type: 'string' },
        'poll-interval': { type: 'string' },
        'ramp-timeout': { type: 'string' },
        'max-other-cpu': { type: 'string' },
        'busy-retries': { type: 'string' },
        'long-poll-wait': { type: 'string' },
        'max-rss-mb': { type: 'string' },
        'quiet-wait': { type: 'string' },
        'quiet-cpu': { type: 'string' },
        score: { type: 'string' },
        profile: { type: 'string' },
        'from-json': { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    return { plan: null, problems: [error.message] };
  }
  const quick = values.quick;
  const number = (name, raw, fallback, { min = 0, integer = true, max = Infinity } = {}) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
      problems.push(
        `--${name} must be ${integer ? 'an integer' : 'a number'} from ${min}${max < Infinity ? ` to ${max}` : ''} (got "${raw}")`,
      );
      return fallback;
    }
    return n;
  };
  const duration = number('duration', values.duration, quick ? 5 : 30, { min: 1, integer: false });
  const runs = number('runs', values.runs, quick ? 1 : 3, { min: 1 });
  const hold = number('hold', values.hold, 120, { min: 0, integer: false });
  const perProcess = number('per-process', values['per-process'], 5000, { min: 1, max: 9000 });
  const batch = number('batch', values.batch, 250, { min: 1, max: 5000 });
  const pollIntervalMs = number('poll-interval', values['poll-interval'], 500, { min: 10 });
  const longPollWaitMs = number('long-poll-wait', values['long-poll-wait'], 20_000, { min: 100, max: 30_000 });
  const quietWait = number('quiet-wait', values['quiet-wait'], quick ? 0 : 120, { min: 0, integer: false });
  const quietCpuPct = number('quiet-cpu', values['quiet-cpu'], 25, { min: 1, integer: false });
  const rampTimeout = number('ramp-timeout', values['ramp-timeout'], 120, { min: 1, integer: false });
  const maxOtherCpuPct = number('max-other-cpu', values['max-other-cpu'], 50, { min: 0, integer: false });
  const busyRetries = number('busy-retries', values['busy-retries'], quick ? 0 : 2, { min: 0, max: 10 });
  const maxRssMb = number('max-rss-mb', values['max-rss-mb'], 4096, { min: 64 });

  const impls = (values.impls ?? 'ours,naive')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const impl of impls) if (!IMPLS.includes(impl)) problems.push(`--impls: unknown implementation "${impl}" (use ${IMPLS.join(', ')})`);

  let specs = (values.cases ?? (quick ? QUICK_CASES : FULL_CASES))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (values.hold !== undefined) {
    if (hold === 0) specs = specs.filter((s) => !s.startsWith('hold:'));
    else if (!specs.some((s) => s.startsWith('hold:'))) specs.push('hold:10000');
  }
  /** @type {Case[]} */
  const cases = [];
  for (const spec of specs) {
    const m = /^([a-z]+):(\d+)$/.exec(spec);
    if (!m || !TRANSPORTS.includes(m[1]) || Number(m[2]) < 1) {
      problems.push(`--cases: "${spec}" is not TRANSPORT:N with TRANSPORT one of ${TRANSPORTS.join(', ')} and N ≥ 1`);
      continue;
    }
    const transport = m[1];
    const clients = Number(m[2]);
    if (transport === 'hold') {
      cases.push({ label: spec, transport: 'ws', clients, impls: ['ours'], duration: hold || 120, runs: 1, hold: true });
    } else {
      cases.push({
        label: spec,
        transport: /** @type {Case['transport']} */ (transport),
        clients,
        impls: transport === 'ws' ? impls : ['ours'],
        duration,
        runs,
        hold: false,
      });
    }
  }
  if (cases.length === 0 && problems.length === 0) problems.push('--cases: nothing to run');
  return {
    plan: {
      cases,
      score: values.score ?? DEFAULT_SCORE,
      out: values.out ?? DEFAULT_OUT,
      perProcess,
      batch,
      pollIntervalMs,
      longPollWaitMs,
      maxRssBytes: maxRssMb * 1024 * 1024,
      quietWaitMs: quietWait * 1000,
      quietCpuPct,
      profileDir: values.profile ?? null,
      fromJson: values['from-json'] ?? null,
      rampTimeoutMs: rampTimeout * 1000,
      maxOtherCpuPct,
      busyRetries,
      quick,
      duration,
      runs,
      help: values.help,
    },
    problems,
  };
}
