// A phone on the Server-Sent Events transport (GET /sse). Artillery has no SSE engine, so this
// runs on the `http` engine with fetch and a small event-stream parser:
//
//   - flow:
//       - function: sseWatch        # open /sse (fails the VU unless 200 text/event-stream)
//       - think: "{{ stayFor }}"     # stay (set by sseWatch)
//       - function: sseFinish       # close; fail the VU if it never joined or was dropped
//
// A seq gap or a new epoch makes it reconnect without Last-Event-ID (docs/reference/audience-protocol.md#endpoints)
// which the server answers with a snapshot. A stream the server ends is counted as
// dropped and fails the VU.

import { httpUrl } from './lib/target-url.js';
import { planStay } from './lib/stay-plan.js';
import { createViewerMeter, Metric } from './lib/viewer-meter.js';
import { createSseParser } from '#core/protocol/sse-parser.js';

/** Open the stream, record the join, and keep reading in the background. */
export async function sseWatch(context, events) {
  const { measureFrom } = planStay(context.vars);
  const url = httpUrl(context.vars.target, '/sse');
  const meter = createViewerMeter({ events, measureFrom, startedAt: Date.now() });
  const session = { meter, finishing: false, dropped: null, controller: null, reading: Promise.resolve() };
  context.tuttiSse = session;
  const body = await open(session, url);
  session.reading = read(session, url, body, events);
}

/** Stop reading; a viewer that never got a snapshot or lost its stream failed. */
export async function sseFinish(context) {
  const session = context.tuttiSse;
  if (!session) throw new Error('sseFinish ran without sseWatch');
  session.finishing = true;
  session.controller?.abort();
  await session.reading;
  if (session.dropped) throw new Error(`sse dropped (${session.dropped})`);
  if (!session.meter.joined()) throw new Error('sse: no snapshot received');
}

/**
 * One request to /sse; resolves with the body stream once the headers say it is a stream.
 * @returns {Promise<ReadableStream<Uint8Array>>}
 */
async function open(session, url) {
  const controller = new AbortController();
  session.controller = controller;
  const res = await fetch(url, { headers: { accept: 'text/event-stream', 'cache-control': 'no-cache' }, signal: controller.signal });
  const type = res.headers.get('content-type') ?? '';
  if (res.status !== 200 || !type.startsWith('text/event-stream') || !res.body) {
    controller.abort();
    throw new Error(`sse: HTTP ${res.status}${type.startsWith('text/event-stream') ? '' : ` ${type || 'no content-type'}`}`);
  }
  return res.body;
}

/** Read events until finished; reconnect (fresh, no Last-Event-ID) when a resync is needed. */
async function read(session, url, firstBody, events) {
  let body = firstBody;
  while (!session.finishing) {
    let resync = false;
    const parser = createSseParser((event) => {
      if (resync) return;
      const verdict = session.meter.text(event.data, Date.now());
      if (verdict === 'resync') {
        resync = true;
        session.controller.abort();
      }
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body) {
        parser.push(decoder.decode(chunk, { stream: true }));
        if (resync) break;
      }
      if (!resync && !session.finishing) session.dropped = 'stream ended';
    } catch (err) {
      if (!resync && !session.finishing) session.dropped = err?.cause?.code ?? err?.code ?? err?.name ?? 'read error';
    }
    if (session.dropped) {
      events.emit('counter', Metric.DROPS, 1);
      return;
    }
    if (!resync || session.finishing) return;
    try {
      body = await open(session, url);
    } catch (err) {
      if (session.finishing) return;
      session.dropped = `resync failed: ${err.message}`;
      events.emit('counter', Metric.DROPS, 1);
      return;
    }
  }
}
