// `tutti serve` flags (docs/reference/cli.md#tutti-serve-flags). Each flag can also come from TUTTI_<NAME>
// (e.g. TUTTI_CONTROL_PORT); flags win. Problems are collected and reported in one clear message.

import { MIN_CONTROL_TOKEN_CHARS } from '../guards/auth.js';
import { parseOscTargetList, MAX_OFFSET_MS } from '../osc/osc-target.js';
import { parseOscListen } from '../osc/osc-in.js';
import { parseCidr } from '../osc/cidr.js';
import { parseEdgeUrl } from '../edge/edge-url.js';

/** @typedef {{ name: string, kind: 'string' | 'port' | 'int' | 'count' | 'bool' | 'osc' | 'osc-listen' | 'cidr' | 'url', repeat?: boolean, help: string, arg?: string }} FlagSpec */

/** @type {FlagSpec[]} */
export const SERVE_FLAGS = [
  { name: 'score', kind: 'string', arg: 'FILE', help: 'score to load (default: the demo score in scores/)' },
  { name: 'host', kind: 'string', arg: 'ADDR', help: 'audience listener address (default 0.0.0.0)' },
  { name: 'port', kind: 'port', arg: 'N', help: 'audience listener port (default 8080; 0 = any free port)' },
  { name: 'control-port', kind: 'port', arg: 'N', help: 'control listener port, always on 127.0.0.1 (default 8081)' },
  { name: 'token', kind: 'string', arg: 'T', help: 'bearer token for the control API, at least 16 characters (default: random, printed)' },
  { name: 'autoplay', kind: 'bool', help: 'start playing as soon as the score is loaded' },
  {
    name: 'osc',
    kind: 'osc',
    repeat: true,
    arg: 'HOST:PORT[,OPT]',
    help: `musicians' OSC target (repeatable). Beats and cues arrive when they sound in any receiver. Options after it: mode=ahead sends bundles timetagged with that time ~300 ms early instead, for receivers that schedule by timetag (liblo, scsynth, ChucK, Csound, Pd's [unpackOSC] → [pipelist]; never Sonic Pi, whose OSC stops at the first bundle; default mode=plain); offset=MS (-${MAX_OFFSET_MS}..${MAX_OFFSET_MS}) moves them earlier (<0) or later. E.g. --osc 10.0.0.2:9000,offset=-20`,
  },
  {
    name: 'osc-plain',
    kind: 'bool',
    help: 'every target plain (plain messages sent when each beat sounds), even one that says mode=ahead; plain is the default now, this is kept for old command lines',
  },
  {
    name: 'osc-in',
    kind: 'osc-listen',
    arg: '[HOST:]PORT',
    help: 'UDP port accepting OSC remote control (a bare PORT listens on 127.0.0.1 only; 0.0.0.0:PORT for the network)',
  },
  {
    name: 'osc-allow',
    kind: 'cidr',
    repeat: true,
    arg: 'CIDR',
    help: 'senders OSC-in accepts, e.g. 192.168.1.0/24 or fd00::/8 (repeatable or comma-separated; default: anyone who can reach --osc-in)',
  },
  { name: 'edge', kind: 'url', arg: 'URL', help: 'mirror the state stream to an edge worker (its public URL)' },
  { name: 'edge-token', kind: 'string', arg: 'T', help: "the edge worker's publish token" },
  { name: 'max-clients', kind: 'int', arg: 'N', help: 'local audience cap; beyond it viewers go to the edge (or get 503)' },
  {
    name: 'rate-limit',
    kind: 'count',
    arg: 'N',
    help: 'audience requests per second per address (burst 3×N; 0 = off; loopback is exempt; default 20)',
  },
  {
    name: 'max-per-address',
    kind: 'count',
    arg: 'N',
    help: 'sockets one address may hold on the audience listener (WebSocket, SSE, keep-alive; 0 = no cap; 127.0.0.1/::1 exempt; default 16)',
  },
  {
    name: 'trust-proxy',
    kind: 'bool',
    help: 'take the client address from X-Forwarded-For on requests from 127.0.0.1/::1 (a reverse proxy on this machine), so per-address limits still apply',
  },
  {
    name: 'state-file',
    kind: 'string',
    arg: 'FILE',
    help: 'where the show position is saved (default: show-state.json in the state folder); after a crash the show resumes from it',
  },
  { name: 'no-resume', kind: 'bool', help: 'do not save the show position and do not resume after a crash' },
  {
    name: 'log-file',
    kind: 'string',
    arg: 'FILE',
    help: 'JSON log file, rotated at 5 MB, 3 kept (default: tutti.log in the state folder)',
  },
  { name: 'no-log-file', kind: 'bool', help: 'write no log file (the terminal still shows the log)' },
  {
    name: 'record-dir',
    kind: 'string',
    arg: 'DIR',
    help: 'where performance records are written (default: records/ in the state folder); see tutti report --help',
  },
  { name: 'no-record', kind: 'bool', help: 'record nothing of this show' },
];

const envName = (flag) => `TUTTI_${flag.toUpperCase().replace(/-/g, '_')}`;

function editDistance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

function convert(spec, raw, source) {
  const where = source === 'env' ? envName(spec.name) : `--${spec.name}`;
  switch (spec.kind) {
    case 'port': {
      if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) return { error: `${where} must be a port number from 0 to 65535, not "${raw}"` };
      return { value: Number(raw) };
    }
    case 'count': {
      if (!/^\d{1,6}$/.test(raw)) return { error: `${where} must be a whole number (0 or more), not "${raw}"` };
      return { value: Number(raw) };
    }
    case 'int': {
      if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) return { error: `${where} must be a positive whole number, not "${raw}"` };
      return { value: Number(raw) };
    }
    case 'bool': {
      if (['1', 'true', 'yes', 'on', ''].includes(raw.toLowerCase())) return { value: true };
      if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return { value: false };
      return { error: `${where} must be true or false, not "${raw}"` };
    }
    case 'osc': {
      const { targets, errors } = parseOscTargetList(raw);
      return errors.length
        ? { error: `${where} must be HOST:PORT[,mode=plain|ahead][,offset=MS] (e.g. 192.168.1.20:9000,offset=-20): ${errors.join('; ')}` }
        : { values: targets };
    }
    case 'osc-listen': {
      const listen = parseOscListen(raw);
      return listen ? { value: listen } : { error: `${where} must be PORT or HOST:PORT (e.g. 9000 or 0.0.0.0:9000), not "${raw}"` };
    }
    case 'cidr': {
      const range = parseCidr(raw);
      return range
        ? { value: range }
        : { error: `${where} must be an address or CIDR range (e.g. 192.168.1.0/24, fd00::/8), not "${raw}"` };
    }
    case 'url': {
      // One reading of an edge URL for the CLI and the console (edge/edge-url.js): wss:// and a
      // trailing /publish are accepted here exactly as the console's edge panel accepts them.
      const { reason } = parseEdgeUrl(raw);
      return reason ? { error: reason.replace(/^--edge/, where) } : { value: raw.replace(/\/+$/, '') };
    }
    default:
      if (raw === '') return { error: `${where} needs a value` };
      return { value: raw };
  }
}

/**
 * A repeatable flag also takes a comma-separated list (--osc-allow 10.0.0.0/8,fd00::/8); --osc
 * reads its own list, where `mode=`/`offset=` items belong to the target before them.
 */
const splitRepeated = (spec, raw) =>
  spec.repeat && spec.kind !== 'osc'
    ? raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [raw];

/**
 * Parse `tutti serve` arguments and environment into server options.
 * @param {string[]} argv arguments after "serve"
 * @param {Record<string, string | undefined>} env
 * @returns {{ options: Record<string, any>, errors: string[] }}
 */
export function parseServeArgs(argv, env = {}) {
  /** @type {Record<string, any>} */
  const values = {};
  const errors = [];
  const byName = new Map(SERVE_FLAGS.map((f) => [f.name, f]));

  for (const spec of SERVE_FLAGS) {
    const raw = env[envName(spec.name)];
    if (raw === undefined) continue;
    for (const part of splitRepeated(spec, raw)) {
      const result = convert(spec, part, 'env');
      if (result.error) errors.push(result.error);
      else if (spec.repeat) (values[spec.name] ??= []).push(...(result.values ?? [result.value]));
      else values[spec.name] = result.value;
    }
  }

  /** Flags replace what the environment said (repeatable ones start over). */
  const fromFlags = new Set();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      errors.push(`unexpected argument "${arg}" (flags start with --; see tutti serve --help)`);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = byName.get(name);
    if (!spec) {
      const guess = SERVE_FLAGS.map((f) => f.name).find((n) => editDistance(n, name) <= 2);
      errors.push(`unknown flag --${name}${guess ? ` (did you mean --${guess}?)` : ''}`);
      continue;
    }
    let raw;
    if (eq !== -1) raw = arg.slice(eq + 1);
    else if (spec.kind === 'bool') raw = 'true';
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) raw = argv[++i];
    else {
      errors.push(`--${name} needs a value (${spec.arg ?? 'VALUE'})`);
      continue;
    }
    if (spec.repeat && !fromFlags.has(name)) values[name] = [];
    fromFlags.add(name);
    for (const part of splitRepeated(spec, raw)) {
      const result = convert(spec, part, 'flag');
      if (result.error) errors.push(result.error);
      else if (spec.repeat) values[name].push(...(result.values ?? [result.value]));
      else values[name] = result.value;
    }
  }

  if (typeof values.token === 'string' && [...values.token].length < MIN_CONTROL_TOKEN_CHARS) {
    errors.push(
      `--token is ${[...values.token].length} characters; a control token must be at least ${MIN_CONTROL_TOKEN_CHARS} (a short one can be guessed); leave --token out to get a random one`,
    );
  }
  if (values['edge-token'] && !values.edge) errors.push('--edge-token needs --edge URL as well');
  if (values.edge && !values['edge-token'])
    errors.push('--edge needs --edge-token T as well (the worker refuses unauthenticated publishers)');

  return {
    errors,
    options: {
      scorePath: values.score,
      host: values.host,
      port: values.port,
      controlPort: values['control-port'],
      token: values.token,
      autoplay: values.autoplay ?? false,
      oscTargets: values.osc ?? [],
      oscPlain: values['osc-plain'] ?? false,
      oscInPort: values['osc-in']?.port ?? null,
      oscInHost: values['osc-in']?.host ?? '127.0.0.1',
      oscAllow: values['osc-allow'] ?? [],
      edgeUrl: values.edge ?? null,
      edgeToken: values['edge-token'] ?? null,
      maxClients: values['max-clients'] ?? null,
      stateFile: values['state-file'] ?? null,
      maxPerAddress: values['max-per-address'],
      trustProxy: values['trust-proxy'] ?? false,
      resume: !values['no-resume'],
      logFile: values['log-file'] ?? null,
      logToFile: !values['no-log-file'],
      recordDir: values['record-dir'] ?? null,
      record: !values['no-record'],
      rateLimit: values['rate-limit'] === undefined ? undefined : { ratePerSecond: values['rate-limit'], burst: values['rate-limit'] * 3 },
    },
  };
}

/** Usage text of `tutti serve`. */
export function serveUsage() {
  const rows = SERVE_FLAGS.map((f) => {
    const left = `  --${f.name}${f.arg ? ` ${f.arg}` : ''}`;
    return `${left.padEnd(26)}${f.help}  [${envName(f.name)}]`;
  });
  return ['Usage: tutti serve [flags]', '', 'Runs the show server without a GUI (venue server, QA, CI).', '', ...rows].join('\n');
}
