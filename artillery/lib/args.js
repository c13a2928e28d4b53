// Command line of `npm run loadtest -- <scenario> [flags]`. Every mistake is one sentence that
// says what to type instead; nothing here starts or touches anything.

import { parseArgs } from 'node:util';
import { SCENARIOS } from './catalog.js';

export const USAGE = `Usage: npm run loadtest -- <scenario> [flags]

Scenarios:
${Object.values(SCENARIOS)
  .map((s) => `  ${s.name.padEnd(16)} ${s.summary}`)
  .join('\n')}

Flags:
  --target URL       audience base URL to load (http://127.0.0.1:8080, http://127.0.0.1:8787, https://…)
  --start-local      start what the scenario needs on this machine and stop it afterwards:
                       local-*: a tutti serve (load-test score, autoplay, port 0)
                       edge-*:  local workerd + a tutti serve publishing to it
                                (with --target: only the tutti serve, publishing to that edge)
  --edge-token T     publish token for --start-local with an edge --target (or TUTTI_EDGE_TOKEN)
  --users N          virtual users (default: 50 viewers, 100 page loads, 200 for zscore-profile)
  --duration S       viewers: seconds everyone stays once all have joined (default 30)
  --ramp S           viewers: seconds over which they join (default 10)
  --score FILE       score for --start-local (default scores/union-rose-load.score.json)
  --output FILE      result JSON (default artillery/results/<scenario>-<timestamp>.json)
  --help             this text

Then: npm run loadtest:report -- <result.json>`;

/**
 * @param {string[]} argv
 * @returns {{ help: true } | { error: string } | { options: {
 *   scenario: import('./catalog.js').Scenario, target: string | null, startLocal: boolean,
 *   edgeToken: string | null, users: number | null, duration: number | null, ramp: number | null,
 *   score: string | null, output: string | null } }}
 */
export function parseRunArgs(argv, env = process.env) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        target: { type: 'string' },
        'start-local': { type: 'boolean' },
        'edge-token': { type: 'string' },
        users: { type: 'string' },
        duration: { type: 'string' },
        ramp: { type: 'string' },
        score: { type: 'string' },
        output: { type: 'string', short: 'o' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return { error: err.message.replace(/\. To specify a positional.*$/s, '') };
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length === 0) return { error: 'name a scenario, e.g. npm run loadtest -- local-ws --start-local' };
  if (positionals.length > 1) return { error: `one scenario at a time (got ${positionals.join(', ')})` };
  const scenario = SCENARIOS[positionals[0]];
  if (!scenario) return { error: `unknown scenario "${positionals[0]}"; one of: ${Object.keys(SCENARIOS).join(', ')}` };

  const number = (flag, { min, integer }) => {
    const raw = values[flag];
    if (raw === undefined) return null;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) {
      throw new Error(`--${flag} must be ${integer ? 'a whole number' : 'a number'} ≥ ${min} (got "${raw}")`);
    }
    return n;
  };
  let users;
  let duration;
  let ramp;
  try {
    users = number('users', { min: 1, integer: true });
    duration = number('duration', { min: 1, integer: false });
    ramp = number('ramp', { min: 1, integer: false });
  } catch (err) {
    return { error: err.message };
  }
  if (duration !== null && scenario.kind !== 'viewers') {
    return {
      error: `--duration does not apply to ${scenario.name}: ${scenario.kind === 'pageload' ? 'phones arrive in bursts until --users have loaded the page' : "its length is ZScore's plan (16 beats, 23 polls)"}`,
    };
  }
  if (ramp !== null && scenario.kind === 'pageload')
    return { error: `--ramp does not apply to ${scenario.name}: phones arrive in bursts of 1–5 at random 0–1 s gaps` };

  let target = null;
  if (values.target !== undefined) {
    try {
      const url = new URL(values.target);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
      target = url.href.replace(/\/+$/, '');
    } catch {
      return { error: `--target must be an http:// or https:// base URL such as http://127.0.0.1:8080 (got "${values.target}")` };
    }
  }
  const startLocal = Boolean(values['start-local']);
  if (startLocal && target && scenario.via === 'local') {
    return { error: `--start-local starts its own server for ${scenario.name}; drop --target (or drop --start-local to load ${target})` };
  }
  const edgeToken = values['edge-token'] ?? env.TUTTI_EDGE_TOKEN ?? null;
  if (values.score !== undefined && !startLocal)
    return { error: '--score only applies with --start-local (the server you started has its own score)' };
  return {
    options: { scenario, target, startLocal, edgeToken, users, duration, ramp, score: values.score ?? null, output: values.output ?? null },
  };
}
