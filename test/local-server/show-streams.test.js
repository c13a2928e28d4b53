// What a show publishes (local-server/src/show-streams.js), with a real hub and metrics and no
// viewers: extras merged into every state, rehearsal mode withholding what phones could act on,
// the lean stream derived from the full one in order, and a reset that starts both streams in a
// new epoch without sending anything.
import { afterEach, expect, test } from '@jest/globals';
import { createShowStreams } from '../../local-server/src/show-streams.js';
import { createMetrics } from '../../local-server/src/metrics.js';
import { LEAN_EPOCH_SUFFIX } from '#core/stream/lean-state.js';

let streams;
const envelopes = [];
afterEach(() => {
  streams?.hub.close();
  envelopes.length = 0;
});

function start() {
  streams = createShowStreams({
    epoch: 'first',
    now: () => 1000.4,
    metrics: createMetrics(),
    replayLimit: 16,
    hubOptions: {},
    onEnvelope: (json) => envelopes.push(JSON.parse(json)),
  });
  return streams;
}

const engineState = (beat) => ({ transport: 'playing', position: { bar: 1, beat, beats: beat - 1 }, tempo: 120 });

test('a reset starts both streams in a new epoch and sends nothing; each change is one envelope, in whole ms', () => {
  const s = start();
  s.reset('e1', engineState(1));
  expect(envelopes).toEqual([]);
  expect([s.stream.epoch(), s.leanStream.epoch()]).toEqual(['e1', `e1${LEAN_EPOCH_SUFFIX}`]);
  expect(s.stream.state()).toMatchObject(engineState(1));

  s.publish(engineState(2));
  s.publish(engineState(2)); // nothing changed: nothing sent
  expect(envelopes).toHaveLength(1);
  expect(envelopes[0]).toMatchObject({ epoch: 'e1', seq: 1, t: 1000 });
  expect(s.stream.seq()).toBe(1);
  expect(s.leanStream.seq()).toBe(1);
});

test('extras are merged into every state; rehearsal mode withholds the vote and says so', () => {
  const s = start();
  let vote = { id: 'path', closed: false };
  s.addExtra(() => ({ vote }));
  s.reset('e1', engineState(1));
  expect(s.stream.state()).toMatchObject({ vote: { id: 'path' } });

  expect(s.setRehearsal(true)).toBe(true);
  expect(s.setRehearsal(true)).toBe(false);
  expect(s.rehearsal()).toBe(true);
  s.publish(engineState(2));
  expect(s.stream.state()).toMatchObject({ rehearsal: true });
  expect(s.stream.state()).not.toHaveProperty('vote');

  expect(s.setRehearsal(false)).toBe(true);
  vote = { id: 'path', closed: true };
  s.publish(engineState(2));
  expect(s.stream.state()).toMatchObject({ vote: { id: 'path', closed: true } });
  expect(s.stream.state()).not.toHaveProperty('rehearsal');
});
