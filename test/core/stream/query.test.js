import { parseStreamQuery, resumePoint, MAX_POLL_WAIT_MS } from '#core/stream/query.js';

test('absent values: a joining viewer on the full stream, no wait', () => {
  expect(parseStreamQuery({})).toEqual({ ok: true, code: null, since: null, wait: 0, epoch: null, stream: 'full' });
  expect(parseStreamQuery({ since: null, wait: null, epoch: '', stream: null })).toMatchObject({ ok: true, since: null, epoch: null });
});

test('each bad value is named by its own code', () => {
  expect(parseStreamQuery({ since: '-1' }).code).toBe('BAD_SINCE');
  expect(parseStreamQuery({ since: '1.5' }).code).toBe('BAD_SINCE');
  expect(parseStreamQuery({ lastEventId: 'x', since: '4' }).code).toBe('BAD_SINCE');
  expect(parseStreamQuery({ wait: 'soon' }).code).toBe('BAD_WAIT');
  expect(parseStreamQuery({ stream: 'fast' }).code).toBe('BAD_STREAM');
  expect(parseStreamQuery({ stream: 'fast' }).ok).toBe(false);
});

test('Last-Event-ID wins over since; wait is capped; lean is kept', () => {
  expect(parseStreamQuery({ lastEventId: '9', since: '4' }).since).toBe(9);
  expect(parseStreamQuery({ wait: '999999' }).wait).toBe(MAX_POLL_WAIT_MS);
  expect(parseStreamQuery({ stream: 'lean' }).stream).toBe('lean');
});

test('a viewer holding another epoch resumes from the snapshot', () => {
  const q = parseStreamQuery({ since: '7', epoch: 'a' });
  expect(resumePoint(q, 'a')).toBe(7);
  expect(resumePoint(q, 'b')).toBe(null);
  expect(resumePoint(parseStreamQuery({ since: '7' }), 'b')).toBe(7);
});
