// The edge-* scenarios, briefly, against the real edge worker on local workerd with a real show
// server publishing to it (the same processors as local-*; only the target differs). Where the
// edge cannot be started from here (no edge-worker/scripts/local-edge.js), the same endpoints of
// the local server stand in, as the contract makes them identical.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startLoadShow, scratch, runBriefly, expectHealthyViewers } from './helpers.js';
import { startLocalEdgeWorker, waitForShow } from '../../artillery/lib/local-stack.js';

const EDGE_HELPER = fileURLToPath(new URL('../../edge-worker/scripts/local-edge.js', import.meta.url));
const haveEdge = existsSync(EDGE_HELPER);

let edge = null;
let show;
let tmp;
let base;
const outcomes = {};

beforeAll(async () => {
  tmp = scratch();
  if (haveEdge) {
    edge = await startLocalEdgeWorker();
    show = await startLoadShow({ edgeUrl: edge.url, edgeToken: edge.token });
    base = edge.url;
  } else {
    show = await startLoadShow();
    base = show.audienceUrl;
  }
  const first = await waitForShow(base, { timeoutMs: 30_000 });
  expect(first.epoch).toBe(show.status().epoch);
  const ws = base.replace(/^http/, 'ws') + '/ws';
  const [edgeWs, edgeSse, edgePoll] = await Promise.all([
    runBriefly({ file: 'edge-ws.yml', target: ws, dir: tmp.dir, users: 4 }),
    runBriefly({ file: 'edge-sse.yml', target: base, dir: tmp.dir, users: 4 }),
    runBriefly({ file: 'edge-poll.yml', target: base, dir: tmp.dir, users: 4 }),
  ]);
  Object.assign(outcomes, { edgeWs, edgeSse, edgePoll });
}, 120_000);

afterAll(async () => {
  await show?.close();
  await edge?.stop();
  tmp?.remove();
});

test(`edge-ws: WebSocket viewers ${haveEdge ? 'on local workerd' : '(local server standing in)'} record push latency and messages`, () => {
  expectHealthyViewers(outcomes.edgeWs, 4);
});

test('edge-sse: SSE viewers record push latency and messages', () => {
  expectHealthyViewers(outcomes.edgeSse, 4);
});

test('edge-poll: pollers record latency and every poll is a 200', () => {
  expectHealthyViewers(outcomes.edgePoll, 4);
  const { counters } = outcomes.edgePoll.result;
  expect(counters['http.codes.200']).toBe(counters['http.requests']);
});
