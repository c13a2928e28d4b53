// A musician's OSC target and its per-target settings (docs/how-to/connect-osc-tools.md#on-time-in-every-receiver)
// : `--osc HOST:PORT[,mode=plain|ahead][,offset=MS]`. `plain` (the default) sends each
// beat and cue as a plain message at the moment it sounds, which every receiver acts on at once;
// `ahead` sends a bundle timetagged with that moment, one lookahead early, for receivers that
// schedule by timetag (liblo, scsynth, ChucK, Csound, Pd's [unpackOSC] → [pipelist]; an sclang OSCdef only if it schedules on its `time`; never Sonic Pi 3, which reads no bundles: targetWarning). `offset` moves both earlier (negative) or later.

/** The delivery modes a target can have; the first is the default. */
export const OSC_MODES = /** @type {const} */ (['plain', 'ahead']);
/** How far a target's offset may move its messages (ms). Beats are known one lookahead (300 ms) early. */
export const MAX_OFFSET_MS = 250;
/** Sonic Pi's cue port: every Sonic Pi takes incoming OSC there (its IO preferences; not settable in 3.x). */
export const SONIC_PI_CUE_PORT = 4560;

/**
 * @typedef {object} OscTarget
 * @property {string} host
 * @property {number} port
 * @property {'plain' | 'ahead'} mode
 * @property {number} offsetMs positive: later, negative: earlier than the beat sounds
 */

/**
 * Parse "host:port" (IPv6 as "[::1]:port").
 * @param {string} text
 * @returns {{ host: string, port: number } | null}
 */
export function parseOscTarget(text) {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s/=,]+)):(\d{1,5})$/.exec(String(text).trim());
  if (!match) return null;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return null;
  return { host: match[1] ?? match[2], port };
}

/**
 * Check a target's mode and offset (from a flag, the console or saved settings).
 * @param {{ mode?: unknown, offsetMs?: unknown }} options
 * @returns {{ mode: 'plain' | 'ahead', offsetMs: number } | { error: string }}
 */
export function checkTargetOptions({ mode = 'plain', offsetMs = 0 }) {
  if (!OSC_MODES.includes(/** @type {any} */ (mode))) return { error: `mode must be ${OSC_MODES.join(' or ')}, not "${mode}"` };
  if (typeof offsetMs !== 'number' || !Number.isFinite(offsetMs) || Math.abs(offsetMs) > MAX_OFFSET_MS) {
    return { error: `offset must be a number of ms from -${MAX_OFFSET_MS} to ${MAX_OFFSET_MS}, not "${offsetMs}"` };
  }
  return { mode: /** @type {'plain' | 'ahead'} */ (mode), offsetMs: Math.round(offsetMs * 10) / 10 };
}

/**
 * Parse the value of `--osc` / TUTTI_OSC: comma-separated items, where `HOST:PORT` starts a target
 * and `mode=…` / `offset=…` set the options of the target before them
 * (`10.0.0.2:9000,offset=-20,10.0.0.3:57120,mode=ahead`).
 * @param {string} text
 * @returns {{ targets: Array<{ host: string, port: number, mode?: 'plain' | 'ahead', offsetMs?: number }>, errors: string[] }}
 */
export function parseOscTargetList(text) {
  /** @type {Array<{ host: string, port: number, mode?: 'plain' | 'ahead', offsetMs?: number }>} */
  const targets = [];
  const errors = [];
  /** @type {Array<{ target: { host: string, port: number }, options: Record<string, unknown>, bad: boolean }>} */
  const items = [];
  for (const item of String(text)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = item.indexOf('=');
    if (eq === -1) {
      const target = parseOscTarget(item);
      if (target) items.push({ target, options: {}, bad: false });
      else errors.push(`"${item}" is not HOST:PORT (e.g. 192.168.1.20:9000)`);
      continue;
    }
    const key = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    const last = items.at(-1);
    if (!last) {
      errors.push(`"${item}" must follow the HOST:PORT it applies to`);
      continue;
    }
    if (key === 'mode') last.options.mode = value;
    else if (key === 'offset') last.options.offsetMs = /^[-+]?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    else {
      errors.push(`unknown OSC target option "${key}" (use mode=plain|ahead or offset=MS)`);
      last.bad = true;
    }
  }
  for (const { target, options, bad } of items) {
    const checked = checkTargetOptions(options);
    if ('error' in checked) errors.push(`${formatTarget(target)}: ${checked.error}`);
    // The defaults are left out, as in saved settings: `--osc a:1` is `{ host: 'a', port: 1 }`.
    else if (!bad)
      targets.push({
        ...target,
        ...(checked.mode !== 'plain' && { mode: checked.mode }),
        ...(checked.offsetMs !== 0 && { offsetMs: checked.offsetMs }),
      });
  }
  return { targets, errors };
}

/**
 * "host:port", with brackets around an IPv6 host.
 * @param {{ host: string, port: number }} target
 */
export function formatTarget(target) {
  return `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
}

/**
 * What goes wrong with a target's settings in a receiver we know, or null. Sonic Pi 3 reads no
 * OSC bundles: the first one `ahead` sends crashes the cue process of its OSC router, and from
 * then on no OSC reaches Sonic Pi, nor leaves it, until it restarts (Sonic Pi 3.2, measured by
 * `npm run test:interop`; docs/how-to/connect-osc-tools.md#on-time-in-every-receiver).
 * @param {{ host: string, port: number, mode: 'plain' | 'ahead' }} target the mode it is sent by
 * @returns {string | null}
 */
export function targetWarning(target) {
  if (target.mode !== 'ahead' || target.port !== SONIC_PI_CUE_PORT) return null;
  return `port ${SONIC_PI_CUE_PORT} is Sonic Pi's, and Sonic Pi 3 reads no bundles: the first one mode=ahead sends stops its OSC until it restarts. Use mode=plain`;
}
