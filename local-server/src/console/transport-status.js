// The console's one view of where the show is (docs/README.md, GET /api/console `transport` and the
// live feed's `transport` events): transport, position, tempo, loop, stream position, count-in and
// rehearsal mode, from one reading of the engine's status.

import { countInView } from './count-in.js';

/**
 * The engine's transport, position and tempo: the fields the control API's status (server.js)
 * and the console's transport status share.
 * @param {{ transport: string, position: { beats: number }, tempo: number, tempoOverride: unknown, tempoPercent: unknown }} engine the engine's status
 */
export function transportFields(engine) {
  const { transport, position, tempo, tempoOverride, tempoPercent } = engine;
  return { transport, position, tempo, tempoOverride, tempoPercent };
}

/**
 * Where the show is, as every console card shows it (the count-in route checks it too).
 * @param {import('../show/show.js').Show} show
 */
export function transportStatus(show) {
  const engine = show.engine.status();
  return {
    ...transportFields(engine),
    loop: engine.loop,
    epoch: show.stream.epoch(),
    seq: show.stream.seq(),
    countIn: countInView(engine.countIn),
    rehearsal: show.rehearsal(),
  };
}
