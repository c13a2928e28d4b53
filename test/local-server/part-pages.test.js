// The part pages' reports (local-server/src/part-pages.js): hostile input is refused with a
// reason, the list is bounded and forgets silent pages.
import { parsePartReport, createPartPages, MAX_PAGES, GONE_MS, FORGET_MS } from '../../local-server/src/part-pages.js';

const good = { id: 'abcdefgh12', part: 'vln', rtt: 1.5, bound: 0.4, transport: 'ws', click: true };

test('a well-formed report is accepted; anything else is refused with a reason', () => {
  expect(parsePartReport(good)).toEqual({ ok: true, report: good });
  expect(parsePartReport({ id: 'abcdefgh12', part: '*' })).toEqual({
    ok: true,
    report: { id: 'abcdefgh12', part: '*', rtt: null, bound: null, transport: null, click: false },
  });
  for (const bad of [
    null,
    [],
    'x',
    { ...good, extra: 1 },
    { ...good, id: 'short' },
    { ...good, part: '../x' },
    { ...good, rtt: -1 },
    { ...good, bound: 1e9 },
    { ...good, rtt: '3' },
    { ...good, transport: 'udp' },
    { ...good, click: 'yes' },
    { ...good, __proto__: { id: 1 }, id: undefined },
  ]) {
    const r = parsePartReport(bad);
    expect(r.ok).toBe(false);
    expect(typeof (/** @type {any} */ (r).reason)).toBe('string');
  }
});

test('the list: newest report per page, gone after GONE_MS, forgotten after FORGET_MS, at most MAX_PAGES', () => {
  let t = 1_000_000;
  const pages = createPartPages({ now: () => t });
  pages.report(good, '10.0.0.2');
  t += 1000;
  pages.report({ ...good, rtt: 3 }, '10.0.0.2');
  expect(pages.list()).toEqual([expect.objectContaining({ id: good.id, rtt: 3, ago: 0, gone: false, address: '10.0.0.2' })]);
  t += GONE_MS + 1;
  expect(pages.list()[0].gone).toBe(true);
  t += FORGET_MS;
  expect(pages.list()).toEqual([]);
  for (let n = 0; n < MAX_PAGES + 10; n += 1) pages.report({ ...good, id: `page-${String(n).padStart(6, '0')}` }, '10.0.0.3');
  const ids = pages.list().map((p) => p.id);
  expect(ids).toHaveLength(MAX_PAGES);
  expect(ids).not.toContain('page-000000');
  expect(ids).toContain(`page-${String(MAX_PAGES + 9).padStart(6, '0')}`);
});
