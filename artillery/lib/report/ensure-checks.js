// A plain `artillery run -o` file (a scenario YAML run directly, as docs/explanation/threat-model.md#several-shows-one-deployment)
// keeps only aggregate/intermediate: Artillery prints its `ensure` verdicts after writing it.
// The report recomputes them here from the scenario's own `ensure` block and the aggregate, with
// Artillery's wording ("ok: tutti.messages > 0"), so it never says "No checks recorded" for a run
// whose checks Artillery printed. Runs made by `npm run loadtest` carry the printed ones instead.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCENARIO_DIR, SCENARIOS } from '../catalog.js';

/** @typedef {{ thresholds: Array<[string, number]>, conditions: string[], maxErrorRate: number | null }} Ensure */

const indentOf = (line) => /^ */.exec(line)?.[0].length ?? 0;
const uncomment = (line) => line.replace(/\s+#.*$/, '').replace(/^\s*#.*$/, '');

/**
 * The `ensure` block of a scenario YAML (config.plugins.ensure, or the one under
 * config.environments.<environment> when given). Reads the shape our scenarios use: a list of
 * `- metric: max` thresholds, `- expression: …` conditions and `maxErrorRate: N`.
 * @param {string} yaml
 * @param {string} [environment]
 * @returns {Ensure | null}
 */
export function readEnsure(yaml, environment) {
  let lines = yaml.split(/\r?\n/).map(uncomment);
  const blockEnd = (at) => {
    const end = lines.findIndex((l, i) => i > at && l.trim() && indentOf(l) <= indentOf(lines[at]));
    return end < 0 ? lines.length : end;
  };
  const envs = lines.findIndex((l) => l.trim() === 'environments:');
  if (environment) {
    const at = envs < 0 ? -1 : lines.findIndex((l, i) => i > envs && l.trim() === `${environment}:`);
    if (at < 0) return null;
    lines = lines.slice(at, blockEnd(at));
  } else if (envs >= 0) {
    lines = [...lines.slice(0, envs), ...lines.slice(blockEnd(envs))];
  }
  const start = lines.findIndex((l) => l.trim() === 'ensure:');
  if (start < 0) return null;
  const base = indentOf(lines[start]);
  /** @type {Ensure} */
  const ensure = { thresholds: [], conditions: [], maxErrorRate: null };
  let section = '';
  for (const line of lines.slice(start + 1)) {
    if (!line.trim()) continue;
    if (indentOf(line) <= base) break;
    const text = line.trim();
    const key = /^([\w]+):\s*(.*)$/.exec(text);
    if (key && !text.startsWith('-')) {
      section = key[1];
      if (section === 'maxErrorRate') ensure.maxErrorRate = Number(key[2]);
      continue;
    }
    const item = /^-\s*([^:]+?):\s*(.+)$/.exec(text);
    if (!item) continue;
    if (section === 'thresholds') ensure.thresholds.push([item[1].trim(), Number(item[2])]);
    if (section === 'conditions' && item[1].trim() === 'expression') ensure.conditions.push(item[2].trim().replace(/^"(.*)"$/, '$1'));
  }
  return ensure;
}

/** Artillery's ensure variables: counters, rates, and summaries as `<name>.<stat>`. */
function variables(aggregate) {
  const vars = { ...(aggregate?.counters ?? {}), ...(aggregate?.rates ?? {}) };
  for (const [name, stats] of Object.entries(aggregate?.summaries ?? {})) {
    for (const [stat, value] of Object.entries(stats ?? {})) vars[`${name}.${stat}`] = value;
  }
  return vars;
}

const COMPARE = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '==': (a, b) => a === b,
  '!=': (a, b) => a !== b,
};

/**
 * Evaluate an ensure block against an aggregate, as Artillery's ensure plugin does. A condition
 * that is not `<metric> <op> <number>` is left out rather than guessed.
 * @param {Ensure} ensure
 * @param {any} aggregate
 * @returns {Array<{ ok: boolean, check: string }>} passed first, as Artillery prints them
 */
export function evaluateEnsure(ensure, aggregate) {
  const vars = variables(aggregate);
  const value = (name) => (Number.isFinite(Number(vars[name])) ? Number(vars[name]) : NaN);
  const checks = [];
  for (const [metric, max] of ensure.thresholds) checks.push({ ok: value(metric) < max, check: `${metric} < ${max}` });
  for (const expression of ensure.conditions) {
    const m = /^([\w.\- ]+?)\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)$/.exec(expression);
    if (m) checks.push({ ok: COMPARE[m[2]](value(m[1]), Number(m[3])), check: expression });
  }
  if (ensure.maxErrorRate !== null && Number.isFinite(ensure.maxErrorRate)) {
    const created = value('vusers.created');
    const rate = ((created - (value('vusers.completed') || 0)) / created) * 100;
    checks.push({ ok: rate <= ensure.maxErrorRate, check: `maxErrorRate < ${ensure.maxErrorRate}` });
  }
  return checks.sort((a, b) => Number(b.ok) - Number(a.ok) || a.check.localeCompare(b.check));
}

/**
 * The checks of a plain result, found through the scenario names Artillery counts
 * (`vusers.created_by_name.<name>`) in the YAMLs of artillery/scenarios. Null when no scenario,
 * or several with different checks, match.
 * @param {any} aggregate
 * @param {string} [dir] scenario folder (tests)
 * @returns {Array<{ ok: boolean, check: string }> | null}
 */
export function recomputeChecks(aggregate, dir = SCENARIO_DIR) {
  const names = Object.keys(aggregate?.counters ?? {})
    .filter((k) => k.startsWith('vusers.created_by_name.'))
    .map((k) => k.slice('vusers.created_by_name.'.length));
  if (names.length !== 1) return null;
  const environment = Object.values(SCENARIOS)
    .flatMap((s) => s.parts ?? [])
    .find((p) => p.scenarioName === names[0])?.environment;
  const found = new Map();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yml'))) {
    const yaml = readFileSync(join(dir, file), 'utf8');
    if (!new RegExp(`^\\s*- name: "?${names[0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?\\s*(#.*)?$`, 'm').test(yaml)) continue;
    const ensure = readEnsure(yaml, environment);
    if (ensure) found.set(JSON.stringify(ensure), ensure);
  }
  if (found.size !== 1) return null;
  return evaluateEnsure([...found.values()][0], aggregate);
}
