// `npm run bench:operator`'s flags (run.js): what each means, its range and its default.

import { fileURLToPath } from 'node:url';
import { parseFlags } from '../lib/cli.js';

const RESULTS = fileURLToPath(new URL('../../bench-results/operator.json', import.meta.url));

export const USAGE = `npm run bench:operator -- [--viewers 5000] [--baseline 100] [--runs 3] [--streams lean,full] [--target venue|edge] [--per-process 2500] [--apply shared|each] [--inflate 10] [--deflate offer|none] [--look-ahead-delay MS] [--out FILE]
  --viewers N       phones per stream (1 … 10000)
  --baseline N      phones of the baseline case in the same run (1 … 1000; 0: none)
  --runs N          runs (1 … 10); the table gives medians
  --streams LIST    lean, full or both
  --target WHERE    venue (default): the phones on the show server; edge: the show mirrored to
                    the edge worker on local workerd, the phones on the edge's /ws
  --per-process N   phones per client process (100 … 9000)
  --apply MODE      shared (default): phones that receive the same bytes share one inflation
                    and one parse, and phones with the same state one merge, so the load
                    generator's CPU does not swamp the figure; each: every phone inflates,
                    parses and merges on its own, as the app does on its own CPU
  --inflate N       concurrent inflations per phone process (ws's limiter; default 10, ws's own)
  --deflate MODE    offer: the phones offer permessage-deflate, as browsers do; none: they do
                    not, so the server sends every message uncompressed. Default: offer at the
                    venue; none on the edge, which refuses compression as deployed but not
                    locally, behind Miniflare's entry worker (edge-worker/README.md,
                    "WebSocket compression")
  --look-ahead-delay MS  how long the show (or with --target edge, the edge's root) holds an
                    action's look-ahead on the lean stream (0 … 2000; default the server's,
                    250; 0: on the next timer tick, as good as at once — the A/B for README.md
                    "The action first, the look-ahead after")
  --out FILE        where the JSON goes (bench-results/operator.json)
`;

/**
 * @param {string[]} argv
 * @returns {{ viewers: number, baseline: number, runs: number, streams: string[], target: 'venue' | 'edge', perProcess: number, apply: 'shared' | 'each', inflate: number, deflate: 'offer' | 'none', lookAheadDelay: number | null, out: string }}
 */
export function parseArgs(argv) {
  const options = /** @type {any} */ (
    parseFlags(argv, {
      usage: USAGE,
      defaults: {
        viewers: 5000,
        baseline: 100,
        runs: 3,
        streams: ['lean', 'full'],
        target: 'venue',
        perProcess: 2500,
        apply: 'shared',
        inflate: 10,
        deflate: null,
        lookAheadDelay: null,
        out: RESULTS,
      },
      numbers: {
        '--viewers': ['viewers', 1, 10_000],
        '--baseline': ['baseline', 0, 1000],
        '--runs': ['runs', 1, 10],
        '--per-process': ['perProcess', 100, 9000],
        '--inflate': ['inflate', 1, 10_000],
        '--look-ahead-delay': ['lookAheadDelay', 0, 2000],
      },
      others: {
        '--out': (value, options) => (options.out = value),
        '--target': (value, options) => {
          if (value !== 'venue' && value !== 'edge') throw new Error('--target takes venue or edge');
          options.target = value;
        },
        '--deflate': (value, options) => {
          if (value !== 'offer' && value !== 'none') throw new Error('--deflate takes offer or none');
          options.deflate = value;
        },
        '--apply': (value, options) => {
          if (value !== 'shared' && value !== 'each') throw new Error('--apply takes shared or each');
          options.apply = value;
        },
        '--streams': (value, options) => {
          const streams = value.split(',');
          if (streams.some((s) => s !== 'lean' && s !== 'full')) throw new Error('--streams takes lean, full or lean,full');
          options.streams = streams;
        },
      },
    })
  );
  options.deflate ??= options.target === 'edge' ? 'none' : 'offer';
  return options;
}
