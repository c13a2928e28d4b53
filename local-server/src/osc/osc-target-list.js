// The OSC sender's targets and their counters (docs/how-to/connect-osc-tools.md#on-time-in-every-receiver):
// add, change, remove and list them, and group them by how and when a timed message reaches
// each (osc.js sends one job per group). A target's mode and offset are checked in osc-target.js.

import { checkTargetOptions, formatTarget, targetWarning } from './osc-target.js';

/**
 * @typedef {object} TargetState
 * @property {string} host
 * @property {number} port
 * @property {'plain' | 'ahead'} mode
 * @property {number} offsetMs
 * @property {number} sent packets handed to the network
 * @property {number} errors send failures (unreachable, no route, name lookup)
 * @property {string | null} lastError
 * @property {{ ms: number, at: number } | null} rtt the last echoed ping's round trip
 */

/**
 * The key a target is known by in the send thread's reports.
 * @param {{ host: string, port: number }} target
 * @returns {string}
 */
export const targetKey = (target) => `${target.host}:${target.port}`;

/**
 * @param {boolean} allPlain every target plain whatever it asks (--osc-plain)
 */
export function createOscTargetList(allPlain) {
  /** @type {Map<string, TargetState>} */
  const targets = new Map();
  /** @param {TargetState} target */
  const modeOf = (target) => (allPlain ? 'plain' : target.mode);

  return {
    /**
     * Add a target (or change the mode/offset of one already there).
     * @param {{ host: string, port: number, mode?: 'plain' | 'ahead', offsetMs?: number }} target
     */
    add(target) {
      const checked = checkTargetOptions(target);
      if ('error' in checked) throw new Error(`${formatTarget(target)}: ${checked.error}`);
      const existing = targets.get(targetKey(target));
      if (existing) Object.assign(existing, checked);
      else
        targets.set(targetKey(target), {
          host: target.host,
          port: target.port,
          ...checked,
          sent: 0,
          errors: 0,
          lastError: null,
          rtt: null,
        });
    },
    /**
     * Change a target's mode and/or offset; null when there is no such target.
     * @param {{ host: string, port: number }} target
     * @param {{ mode?: 'plain' | 'ahead', offsetMs?: number }} change
     */
    update(target, change) {
      const existing = targets.get(targetKey(target));
      if (!existing) return null;
      const checked = checkTargetOptions({ mode: change.mode ?? existing.mode, offsetMs: change.offsetMs ?? existing.offsetMs });
      if ('error' in checked) throw new Error(`${formatTarget(target)}: ${checked.error}`);
      Object.assign(existing, checked);
      return { ...existing };
    },
    /** @param {{ host: string, port: number }} target */
    remove: (target) => targets.delete(targetKey(target)),
    /** @param {string} key @returns {TargetState | undefined} */
    get: (key) => targets.get(key),
    /** @returns {TargetState[]} the live records (the send reports update their counters) */
    all: () => [...targets.values()],
    size: () => targets.size,
    /** @returns {Array<TargetState & { warning: string | null }>} copies, each with the mode it is sent by and what that mode does wrong there (osc-target.js targetWarning) */
    list: () =>
      [...targets.values()].map((t) => {
        const sent = { ...t, mode: modeOf(t) };
        return { ...sent, warning: targetWarning(sent) };
      }),
    /**
     * What the mode a target is sent by does wrong in the receiver on its port, or null (also for no such target).
     * @param {{ host: string, port: number }} target
     */
    warning(target) {
      const t = targets.get(targetKey(target));
      return t ? targetWarning({ ...t, mode: modeOf(t) }) : null;
    },
    /**
     * The targets grouped by mode, then by offset: one job per distinct moment (plain) or per
     * bundle encoding (ahead).
     * @returns {{ plain: Map<number, TargetState[]>, ahead: Map<number, TargetState[]> }}
     */
    byModeAndOffset() {
      const groups = { plain: new Map(), ahead: new Map() };
      for (const target of targets.values()) {
        const byOffset = groups[modeOf(target)];
        byOffset.set(target.offsetMs, [...(byOffset.get(target.offsetMs) ?? []), target]);
      }
      return groups;
    },
  };
}

/** @typedef {ReturnType<typeof createOscTargetList>} OscTargetList */
