// The pieces the load-test processors and runner are built from, without Artillery: envelope
// heads, seq tracking, the SSE parser, burst arrivals, page assets, phases and the CLI flags.

import { readFileSync, existsSync } from 'node:fs';
import { readEnvelopeHead, headOf } from '#core/protocol/envelope-head.js';
import { createSeqTracker } from '../../artillery/processors/lib/seq-tracker.js';
import { createSseParser } from '#core/protocol/sse-parser.js';
import { createBurstSchedule } from '../../artillery/processors/lib/bursts.js';
import { pageAssetUrls } from '../../artillery/processors/lib/page-assets.js';
import { planStay, resetStayOrigin } from '../../artillery/processors/lib/stay-plan.js';
import { createViewerMeter } from '../../artillery/processors/lib/viewer-meter.js';
import { wsUrl, httpUrl } from '../../artillery/processors/lib/target-url.js';
import { rampPhases, artilleryPlan } from '../../artillery/lib/phases.js';
import { parseRunArgs } from '../../artillery/lib/args.js';
import { createEnvelope } from '#core/protocol/envelope.js';
import { formatSseEvent } from '#core/protocol/sse.js';

const env = (type, seq, epoch = 'e1', t = 1000.5, data = { position: { bar: 1 } }) =>
  JSON.stringify(createEnvelope(type, epoch, seq, t, data));

/** An events emitter that records what a processor reports. */
function recorder() {
  const counters = {};
  const histograms = {};
  return {
    counters,
    histograms,
    emit(type, name, value) {
      if (type === 'counter') counters[name] = (counters[name] ?? 0) + value;
      if (type === 'histogram') (histograms[name] ??= []).push(value);
    },
  };
}

describe('readEnvelopeHead', () => {
  test('reads type, epoch, seq and t from the server envelope layout without a full parse', () => {
    expect(readEnvelopeHead(env('delta', 42, 'k3f9', 1763790000123.25))).toEqual({
      type: 'delta',
      epoch: 'k3f9',
      seq: 42,
      t: 1763790000123.25,
    });
  });
  test('falls back to JSON.parse when keys come in another order', () => {
    const text = JSON.stringify({ t: 5, seq: 3, epoch: 'x', type: 'snapshot', v: 1, data: {} });
    expect(readEnvelopeHead(text)).toEqual({ type: 'snapshot', epoch: 'x', seq: 3, t: 5 });
  });
  test('returns null for pongs, garbage and wrong versions', () => {
    expect(readEnvelopeHead('{"type":"pong","id":1,"c":2,"s":3}')).toBeNull();
    expect(readEnvelopeHead('not json')).toBeNull();
    expect(readEnvelopeHead(JSON.stringify({ v: 2, type: 'delta', epoch: 'e', seq: 1, t: 1, data: {} }))).toBeNull();
    expect(headOf(null)).toBeNull();
  });
});

describe('createSeqTracker', () => {
  test('the first snapshot is a join; in-order deltas are live; repeats are duplicates', () => {
    const t = createSeqTracker();
    expect(t.accept({ type: 'delta', epoch: 'e', seq: 4 })).toBe('ignored');
    expect(t.accept({ type: 'snapshot', epoch: 'e', seq: 5 })).toBe('join');
    expect(t.accept({ type: 'delta', epoch: 'e', seq: 6 })).toBe('live');
    expect(t.accept({ type: 'delta', epoch: 'e', seq: 6 })).toBe('duplicate');
    expect(t.accept({ type: 'snapshot', epoch: 'e', seq: 6 })).toBe('duplicate');
    expect(t.seq()).toBe(6);
  });
  test('a gap or a new epoch asks for a resync; the answering snapshot is a join again', () => {
    const t = createSeqTracker();
    t.accept({ type: 'snapshot', epoch: 'e', seq: 1 });
    expect(t.accept({ type: 'delta', epoch: 'e', seq: 3 })).toBe('resync');
    expect(t.inStep()).toBe(false);
    expect(t.accept({ type: 'delta', epoch: 'e', seq: 4 })).toBe('ignored');
    expect(t.accept({ type: 'snapshot', epoch: 'e', seq: 4 })).toBe('join');
    expect(t.accept({ type: 'delta', epoch: 'f', seq: 5 })).toBe('resync');
    expect(t.accept({ type: 'snapshot', epoch: 'f', seq: 0 })).toBe('join');
    expect(t.epoch()).toBe('f');
  });
  test('a snapshot pushed unasked (a new epoch) is live; after expectJoin the next one is a join', () => {
    const t = createSeqTracker();
    t.accept({ type: 'snapshot', epoch: 'e', seq: 1 });
    expect(t.accept({ type: 'snapshot', epoch: 'g', seq: 0 })).toBe('live');
    t.expectJoin();
    expect(t.accept({ type: 'delta', epoch: 'g', seq: 1 })).toBe('live');
    expect(t.accept({ type: 'snapshot', epoch: 'g', seq: 2 })).toBe('join');
  });
});

describe('createViewerMeter', () => {
  test('records latency for pushes only, counts every envelope and each resync', () => {
    const events = recorder();
    const meter = createViewerMeter({ events, startedAt: 900 });
    meter.text(env('snapshot', 1, 'e', 800), 1000);
    meter.text(env('delta', 2, 'e', 1000), 1012);
    meter.text(env('delta', 4, 'e', 1100), 1105); // gap
    meter.text('{"type":"pong","id":1,"c":1,"s":1}', 1106);
    expect(events.counters['tutti.messages']).toBe(3);
    expect(events.counters['tutti.resyncs']).toBe(1);
    expect(events.histograms['tutti.push_latency_ms']).toEqual([12]);
    expect(events.histograms['tutti.join_ms']).toEqual([100]);
    expect(events.counters['tutti.received_bytes']).toBeGreaterThan(0);
    expect(meter.joined()).toBe(true);
  });
  test('with measureFrom, pushes created earlier are counted but not measured', () => {
    const events = recorder();
    const meter = createViewerMeter({ events, measureFrom: 2000 });
    meter.text(env('snapshot', 1, 'e', 1000), 1000);
    meter.text(env('delta', 2, 'e', 1500), 1510);
    meter.text(env('delta', 3, 'e', 2500), 2503);
    expect(events.histograms['tutti.push_latency_ms']).toEqual([3]);
    expect(events.counters['tutti.messages']).toBe(3);
  });
});

describe('createSseParser', () => {
  test('parses events split at every possible point, with comments, CRLF and multi-line data', () => {
    const stream = `retry: 1000\n\n:\n\n${formatSseEvent(7, env('snapshot', 7))}id: 8\r\ndata: {"a":\r\ndata: 1}\r\n\r\n${formatSseEvent(9, env('delta', 9))}`;
    for (let cut = 0; cut <= stream.length; cut += 1) {
      const got = [];
      const parser = createSseParser((e) => got.push(e));
      parser.push(stream.slice(0, cut));
      parser.push(stream.slice(cut));
      expect(got.map((e) => e.id)).toEqual(['7', '8', '9']);
      expect(got[1].data).toBe('{"a":\n1}');
      expect(readEnvelopeHead(got[2].data)?.seq).toBe(9);
      expect(parser.lastEventId()).toBe('9');
    }
  });
  test('a lone CR at the end of a chunk does not swallow the next line', () => {
    const got = [];
    const parser = createSseParser((e) => got.push(e.data));
    parser.push('data: x\r');
    parser.push('\r\ndata: y\n\n');
    expect(got).toEqual(['x', 'y']);
  });
});

describe('createBurstSchedule', () => {
  test('bursts of 1–5 phones, 0–1 s apart, the same for the same seed', () => {
    const take = (seed) => {
      const s = createBurstSchedule({ seed });
      return Array.from({ length: 300 }, () => s.next());
    };
    const a = take(7);
    expect(take(7)).toEqual(a);
    expect(take(8)).not.toEqual(a);
    const sizes = new Map();
    for (const { burst } of a) sizes.set(burst, (sizes.get(burst) ?? 0) + 1);
    for (const size of [...sizes.values()].slice(0, -1)) expect(size).toBeGreaterThanOrEqual(1);
    expect(Math.max(...sizes.values())).toBeLessThanOrEqual(5);
    expect(new Set(sizes.values()).size).toBeGreaterThan(1);
    for (let i = 1; i < a.length; i += 1) {
      const gap = a[i].offsetMs - a[i - 1].offsetMs;
      expect(gap).toBeGreaterThanOrEqual(0);
      expect(gap).toBeLessThanOrEqual(1000);
      if (a[i].burst === a[i - 1].burst) expect(gap).toBe(0);
    }
    // ≈ 3 phones per burst, 0.5 s apart: 300 phones take about 50 s.
    expect(a.at(-1).offsetMs).toBeGreaterThan(25_000);
    expect(a.at(-1).offsetMs).toBeLessThan(75_000);
  });
});

describe('pageAssetUrls', () => {
  test('finds the stylesheet and module script of the built audience page, resolved and same-origin', () => {
    const index = new URL('../../dist/audience/index.html', import.meta.url);
    const html = existsSync(index)
      ? readFileSync(index, 'utf8')
      : '<link rel="stylesheet" href="assets/app-x.css"><script type="module" src="assets/app-y.js"></script>';
    const urls = pageAssetUrls(html, 'http://127.0.0.1:9/');
    expect(urls.some((u) => /^http:\/\/127\.0\.0\.1:9\/assets\/.+\.css$/.test(u))).toBe(true);
    expect(urls.some((u) => /^http:\/\/127\.0\.0\.1:9\/assets\/.+\.js$/.test(u))).toBe(true);
  });
  test('skips data: URLs, other origins and unrelated links; honours <base>', () => {
    const html = `<base href="/show/"><link rel="icon" href="data:,"><link rel="stylesheet" href='a.css'><link rel="canonical" href="/x">
      <script src="https://cdn.example/x.js"></script><script src=b.js></script><img src="i.png"><link rel="stylesheet" href="a.css">`;
    expect(pageAssetUrls(html, 'http://h:1/')).toEqual(['http://h:1/show/a.css', 'http://h:1/show/b.js', 'http://h:1/show/i.png']);
  });
});

describe('planStay', () => {
  test('everyone leaves at first arrival + ramp + hold; full-house measuring starts after the ramp', () => {
    resetStayOrigin();
    const first = { ramp: 10, hold: 8, measure: 'full-house' };
    expect(planStay(first, 1_000)).toEqual({ leaveAt: 19_000, measureFrom: 11_000, stayMs: 18_000 });
    expect(first.stayFor).toBe('18000ms');
    const late = { ramp: 10, hold: 8 };
    expect(planStay(late, 7_000)).toEqual({ leaveAt: 19_000, measureFrom: -Infinity, stayMs: 12_000 });
    // Someone arriving after the end still stays a second (and is measured).
    expect(planStay({ ramp: 10, hold: 8 }, 30_000).stayMs).toBe(1000);
    resetStayOrigin();
  });
});

describe('target URLs', () => {
  test('one base URL gives every transport its URL', () => {
    expect(wsUrl('http://127.0.0.1:8080', '/ws')).toBe('ws://127.0.0.1:8080/ws');
    expect(wsUrl('https://edge.example.com/show/', '/ws')).toBe('wss://edge.example.com/show/ws');
    expect(httpUrl('http://127.0.0.1:8787/?x=1', '/sse')).toBe('http://127.0.0.1:8787/sse');
  });
});

describe('phases', () => {
  test.each([1, 5, 9, 10, 11, 99, 100, 101, 1500])('%i users join in about 10 s, no more and no fewer', (users) => {
    const { phases, ramp } = rampPhases(users, 10);
    const [p] = phases;
    expect(p.maxVusers).toBe(users);
    expect(p.arrivalRate * p.duration).toBeGreaterThanOrEqual(users);
    expect(p.arrivalRate * (p.duration - 1)).toBeLessThan(users);
    expect(ramp).toBe(p.duration);
    expect(ramp).toBeLessThanOrEqual(10);
  });
  test('page loads are created at once (the processor spaces them); viewers get ramp and hold', () => {
    expect(artilleryPlan({ kind: 'pageload', users: 30, ramp: 0, hold: 0 }).overrides.config.phases).toEqual([
      { name: '30 phones arrive in bursts', duration: 1, arrivalCount: 30, maxVusers: 30 },
    ]);
    expect(artilleryPlan({ kind: 'pageload', users: 1500, ramp: 0, hold: 0 }).overrides.config.phases[0]).toMatchObject({
      duration: 8,
      arrivalCount: 1500,
      maxVusers: 1500,
    });
    expect(artilleryPlan({ kind: 'viewers', users: 30, ramp: 10, hold: 20 }).variables).toEqual({ ramp: 10, hold: 20 });
  });
});

describe('parseRunArgs', () => {
  test('takes a scenario and the documented flags', () => {
    const r = parseRunArgs(
      ['local-ws', '--target', 'http://127.0.0.1:8080/', '--users', '200', '--duration', '60', '--output', 'x.json'],
      {},
    );
    expect(r.options).toMatchObject({ target: 'http://127.0.0.1:8080', users: 200, duration: 60, output: 'x.json', startLocal: false });
    expect(r.options.scenario.name).toBe('local-ws');
  });
  test.each([
    [[], /name a scenario/],
    [['nope'], /unknown scenario "nope"/],
    [['local-ws', '--users', '0'], /--users must be a whole number ≥ 1/],
    [['local-ws', '--users', '2.5'], /--users must be a whole number/],
    [['local-ws', '--target', 'ftp://x'], /--target must be an http/],
    [['local-ws', '--start-local', '--target', 'http://127.0.0.1:1'], /--start-local starts its own server/],
    [['local-pageload', '--duration', '10'], /--duration does not apply to local-pageload/],
    [['zscore-profile', '--duration', '10'], /ZScore's plan/],
    [['local-ws', '--score', 'x.json'], /--score only applies with --start-local/],
    [['local-ws', '--bogus'], /Unknown option '--bogus'/],
  ])('%j is refused with a usable message', (argv, message) => {
    expect(parseRunArgs(argv, {}).error).toMatch(message);
  });
  test('the edge token comes from the flag or TUTTI_EDGE_TOKEN', () => {
    expect(parseRunArgs(['edge-ws', '--target', 'https://e.example', '--start-local'], { TUTTI_EDGE_TOKEN: 'abc' }).options.edgeToken).toBe(
      'abc',
    );
    expect(parseRunArgs(['edge-ws', '--edge-token', 'x'], { TUTTI_EDGE_TOKEN: 'abc' }).options.edgeToken).toBe('x');
  });
});
