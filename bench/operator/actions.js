// The operator's actions measured by `npm run bench:operator` (docs/results.md#how-fast-how-small):
// the control API request that makes each one, the field of a phone's state that shows it was
// applied (the same on the full and the lean stream), and what puts the show back afterwards.

import { PROMPT_BAR, PROMPT_ID, SEEK_BAR } from './score.js';

const TEMPO_BPM = 150;

/**
 * @typedef {{ action: string, value?: number }} ActionSpec what a phone watches for
 * @typedef {{ path: string, body: Record<string, unknown> }} ControlRequest
 * @typedef {{ name: string, spec: ActionSpec, request: ControlRequest, undo: ControlRequest[] }} OperatorAction
 */

/** @type {OperatorAction[]} in the order a run makes them */
export const OPERATOR_ACTIONS = [
  {
    name: 'pause',
    spec: { action: 'pause' },
    request: { path: '/api/transport', body: { action: 'pause' } },
    undo: [{ path: '/api/transport', body: { action: 'play' } }],
  },
  {
    name: 'seek',
    spec: { action: 'seek', value: SEEK_BAR },
    request: { path: '/api/transport', body: { action: 'seek', bar: SEEK_BAR } },
    undo: [],
  },
  {
    name: 'tempo',
    spec: { action: 'tempo', value: TEMPO_BPM },
    request: { path: '/api/tempo', body: { bpm: TEMPO_BPM } },
    undo: [{ path: '/api/tempo', body: { bpm: null } }],
  },
  {
    name: 'vote opens',
    spec: { action: 'vote' },
    request: { path: '/api/transport', body: { action: 'seek', bar: PROMPT_BAR } },
    // Seeking away abandons the prompt; back near the start so the next run's seek moves again.
    undo: [{ path: '/api/transport', body: { action: 'seek', bar: 2 } }],
  },
];

/**
 * Whether a phone's state shows the action: what the page would draw from it.
 * @param {ActionSpec} spec
 * @param {Record<string, any>} state
 * @returns {boolean}
 */
export function actionShown(spec, state) {
  switch (spec.action) {
    case 'pause':
      return state.transport === 'paused';
    case 'seek':
      // The flywheel's segment starts at the bar sought (both streams carry it while playing).
      return state.segment?.bar === spec.value && state.segment?.beat === 1;
    case 'tempo':
      return state.segment?.bpm === spec.value;
    case 'vote':
      return state.vote?.id === PROMPT_ID;
    default:
      throw new Error(`unknown action ${spec.action}`);
  }
}
