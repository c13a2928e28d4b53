// Every scenario `npm run loadtest` knows: which YAML, what kind of load it is (that decides how
// --users and --duration become Artillery phases) and what it needs running.

import { fileURLToPath } from 'node:url';

export const SCENARIO_DIR = fileURLToPath(new URL('../scenarios/', import.meta.url));

/**
 * @typedef {'pageload' | 'viewers' | 'ramp'} LoadKind
 *   pageload: phones arrive in bursts (users = page loads; no duration)
 *   viewers: users join over `ramp` seconds and all stay `hold` more seconds
 *   ramp: users join over `ramp` seconds and each runs its own fixed flow (ZScore's 23 polls)
 * @typedef {{ name: string, scenarioName: string, environment: string, kind: LoadKind, transport: 'http' | 'ws', ramp?: number, hold?: number }} ProfilePart
 * @typedef {object} Scenario
 * @property {string} name
 * @property {string} file YAML file in artillery/scenarios
 * @property {'local' | 'edge'} via what serves the audience endpoints
 * @property {LoadKind | 'profile'} kind
 * @property {'http' | 'ws'} transport the target URL Artillery needs (ws: <base>/ws)
 * @property {string} summary
 * @property {{ users: number, ramp: number, hold: number }} defaults
 * @property {ProfilePart[]} [parts] zscore-profile: cases run one after another
 * @property {string} [score] the score --start-local plays (default: the load-test score)
 */

const viewer = (via, transport, label) => ({
  file: `${via}-${label}.yml`,
  via,
  kind: /** @type {const} */ ('viewers'),
  transport,
  defaults: { users: 50, ramp: 10, hold: 30 },
});

/** @type {Record<string, Scenario>} */
export const SCENARIOS = {
  'local-pageload': {
    name: 'local-pageload',
    file: 'local-pageload.yml',
    via: 'local',
    kind: 'pageload',
    transport: 'http',
    summary: 'phones load / and its assets in bursts of 1–5 at random 0–1 s gaps',
    defaults: { users: 100, ramp: 0, hold: 0 },
  },
  'local-ws': { name: 'local-ws', ...viewer('local', 'ws', 'ws'), summary: 'WebSocket viewers on the venue server' },
  'local-sse': { name: 'local-sse', ...viewer('local', 'http', 'sse'), summary: 'SSE viewers on the venue server' },
  'local-poll': { name: 'local-poll', ...viewer('local', 'http', 'poll'), summary: 'viewers polling the venue server every 500 ms' },
  'edge-ws': { name: 'edge-ws', ...viewer('edge', 'ws', 'ws'), summary: 'WebSocket viewers on the edge worker' },
  'edge-sse': { name: 'edge-sse', ...viewer('edge', 'http', 'sse'), summary: 'SSE viewers on the edge worker' },
  'edge-poll': { name: 'edge-poll', ...viewer('edge', 'http', 'poll'), summary: 'viewers polling the edge worker every 500 ms' },
  'vote-storm': {
    name: 'vote-storm',
    file: 'vote-storm.yml',
    via: 'local',
    kind: 'viewers',
    transport: 'ws',
    summary: 'WebSocket viewers that vote on every prompt within 2 s (a score with a prompt every 8 bars)',
    defaults: { users: 200, ramp: 10, hold: 40 },
    score: fileURLToPath(new URL('../scores/vote-storm.score.json', import.meta.url)),
  },
  'zscore-profile': {
    name: 'zscore-profile',
    file: 'zscore-profile.yml',
    via: 'local',
    kind: 'profile',
    transport: 'http',
    summary: "ZScore's published test plan: page load, WebSocket push, 23 polls (--users 100/200/500/1000/1500)",
    defaults: { users: 200, ramp: 10, hold: 8 },
    parts: [
      { name: 'pageload', scenarioName: 'zscore-pageload', environment: 'pageload', kind: 'pageload', transport: 'http' },
      // 16 beats at the load score's 120 bpm, with every viewer connected
      { name: 'ws', scenarioName: 'zscore-ws', environment: 'ws', kind: 'viewers', transport: 'ws', ramp: 10, hold: 8 },
      // JMeter's 10 s ramp-up; each client then loads the page and polls 23 times
      { name: 'poll', scenarioName: 'zscore-poll', environment: 'poll', kind: 'ramp', transport: 'http', ramp: 10 },
    ],
  },
};

/** The user counts ZScore published figures for. */
export const ZSCORE_USER_STEPS = [100, 200, 500, 1000, 1500];
