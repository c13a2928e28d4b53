// The part pages' reports (local-server/src/parts/part-pages.js): hostile input is refused with a
// reason, the list is bounded and forgets silent pages.
import {
  parsePartReport,
  createPartPages,
  MAX_PAGES,
  MAX_PAGES_PER_ADDRESS,
  GONE_MS,
  FORGET_MS,
} from '../../../local-server/src/parts/part-pages.js';

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
  // One page per address: the oldest report is dropped first.
  for (let n = 0; n < MAX_PAGES + 10; n += 1) pages.report({ ...good, id: `page-${String(n).padStart(6, '0')}` }, `10.0.1.${n}`);
  const ids = pages.list().map((p) => p.id);
  expect(ids).toHaveLength(MAX_PAGES);
  expect(ids).not.toContain('page-000000');
  expect(ids).toContain(`page-${String(MAX_PAGES + 9).padStart(6, '0')}`);
});

test('one address making pages up pushes out only its own (issue 40 item 14)', () => {
  let t = 1_000_000;
  const pages = createPartPages({ now: () => t });
  // The band: 12 tablets, each on its own address.
  for (let n = 0; n < 12; n += 1) pages.report({ ...good, id: `tablet-${n}-xyz` }, `10.0.0.${10 + n}`);
  // A key holder reports 70 made-up pages from one address.
  for (let n = 0; n < 70; n += 1) {
    t += 10;
    pages.report({ ...good, id: `fake-${String(n).padStart(4, '0')}` }, '10.0.0.66');
  }
  const listed = pages.list();
  expect(listed.filter((p) => p.id.startsWith('tablet-'))).toHaveLength(12);
  const fakes = listed.filter((p) => p.address === '10.0.0.66').map((p) => p.id);
  expect(fakes).toHaveLength(MAX_PAGES_PER_ADDRESS);
  expect(fakes.sort()).toEqual(
    Array.from({ length: MAX_PAGES_PER_ADDRESS }, (_, i) => `fake-${String(70 - MAX_PAGES_PER_ADDRESS + i).padStart(4, '0')}`),
  );
  // A full list from many addresses: the address holding the most gives up its oldest.
  for (let n = 0; n < MAX_PAGES; n += 1) pages.report({ ...good, id: `other-${String(n).padStart(4, '0')}` }, `10.1.${n >> 3}.1`);
  const after = pages.list();
  expect(after).toHaveLength(MAX_PAGES);
  expect(after.filter((p) => p.id.startsWith('tablet-'))).toHaveLength(12);
});
