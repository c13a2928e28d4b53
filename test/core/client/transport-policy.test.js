import { createTransportPolicy } from '#core/client/transport-policy.js';

describe('transport policy', () => {
  test('WebSocket first; three failures in a row without a state abandon it for SSE, then polling', () => {
    const p = createTransportPolicy({ random: () => 0.5 });
    expect(p.current()).toBe('ws');
    expect(p.failed({ now: 0 })).toMatchObject({ transport: 'ws', switched: false });
    expect(p.failed({ now: 1 })).toMatchObject({ transport: 'ws', switched: false });
    expect(p.failed({ now: 2 })).toMatchObject({ transport: 'sse', switched: true });
    p.failed({ now: 3 });
    p.failed({ now: 4 });
    expect(p.failed({ now: 5 })).toMatchObject({ transport: 'poll', switched: true });
    // Polling is the last resort: it keeps retrying.
    for (let i = 0; i < 10; i += 1) expect(p.failed({ now: 6 + i }).transport).toBe('poll');
    expect(p.status().switches).toBe(2);
  });

  test('a success resets the failure count', () => {
    const p = createTransportPolicy();
    p.failed({ now: 0 });
    p.failed({ now: 0 });
    p.succeeded();
    p.failed({ now: 0 });
    p.failed({ now: 0 });
    expect(p.current()).toBe('ws');
  });

  test('failures while the server is unreachable only back off, never demote', () => {
    const p = createTransportPolicy({ random: () => 0 });
    for (let i = 0; i < 20; i += 1) p.failed({ now: i, serverReachable: false });
    expect(p.current()).toBe('ws');
  });

  test('backoff grows exponentially with jitter and is capped near 5 s', () => {
    const lo = createTransportPolicy({ random: () => 0, maxFailures: 1e9 });
    const hi = createTransportPolicy({ random: () => 0.999999, maxFailures: 1e9 });
    const los = [];
    const his = [];
    for (let i = 0; i < 8; i += 1) {
      los.push(lo.failed({ now: 0 }).delay);
      his.push(hi.failed({ now: 0 }).delay);
    }
    expect(los).toEqual([125, 250, 500, 1000, 2000, 2500, 2500, 2500]);
    expect(his.every((d, i) => d > los[i] && d < 2 * los[i] + 1e-6)).toBe(true);
    expect(Math.max(...his)).toBeLessThanOrEqual(5000);
  });

  test('a better transport is probed after the retry window, best first, and taken back when it works', () => {
    const p = createTransportPolicy({ betterRetryMs: 1000, maxFailures: 1 });
    p.failed({ now: 0 }); // → sse
    p.failed({ now: 100 }); // → poll
    expect(p.current()).toBe('poll');
    expect(p.probe(500)).toBeNull();
    expect(p.probe(1100)).toBe('ws');
    expect(p.probe(1200)).toBeNull(); // one probe per window
    p.probeResult('ws', false, 1200);
    expect(p.probe(2300)).toBe('sse'); // next window tries the next better one
    p.probeResult('sse', true, 2300);
    expect(p.current()).toBe('sse');
    expect(p.probe(3400)).toBe('ws');
    p.probeResult('ws', true, 3400);
    expect(p.current()).toBe('ws');
    expect(p.probe(99_999)).toBeNull(); // already on the best
  });

  test('respects a reduced order (browser without WebSocket) and refuses an empty one', () => {
    const p = createTransportPolicy({ order: ['sse', 'poll'] });
    expect(p.current()).toBe('sse');
    expect(() => createTransportPolicy({ order: [] })).toThrow(RangeError);
  });
});
