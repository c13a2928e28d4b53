// A real show engine playing a score on a fake clock (test/support/fake-clock.js), for core tests
// that follow every state it publishes; and the load-test score those tests play.
import { readFileSync } from 'node:fs';
import { validateScore } from '#core/score/validate.js';
import { createShowEngine } from '#core/engine/engine.js';
import { createFakeClock } from './fake-clock.js';

/** scores/union-rose-load.score.json, parsed (a fresh copy each call). */
export const loadTestScore = () => JSON.parse(readFileSync(new URL('../../scores/union-rose-load.score.json', import.meta.url), 'utf8'));

/**
 * @param {unknown} raw a score as written (validated here)
 * @param {(state: Record<string, any>) => void} onState every state the engine publishes
 * @param {ReturnType<typeof createFakeClock>} [clock] a clock made beforehand (streams created before the engine read it)
 */
export function engineOnFakeClock(raw, onState, clock = createFakeClock()) {
  const { score } = validateScore(raw);
  const engine = createShowEngine({ score, now: clock.now, setTimer: clock.setTimer, clearTimer: clock.clearTimer, onState });
  return { engine, clock };
}
