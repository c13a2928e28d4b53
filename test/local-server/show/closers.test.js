// The show server's one stack of closers (local-server/src/show/closers.js): last added, first closed;
// each once however often close is called; a closer that throws is logged and the rest still run.
import { createClosers } from '../../../local-server/src/show/closers.js';

const quietLog = () => {
  const warnings = [];
  return { warnings, warn: (msg) => warnings.push(msg) };
};

test('closers run last-added first, awaiting each before the next', async () => {
  const log = quietLog();
  const closers = createClosers(log);
  const order = [];
  closers.add('log file', () => order.push('log file'));
  closers.add('listeners', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    order.push('listeners');
  });
  closers.add('show', () => order.push('show'));
  await closers.close();
  expect(order).toEqual(['show', 'listeners', 'log file']);
  expect(log.warnings).toEqual([]);
});

test('close twice runs every closer once, and both calls wait for the same end', async () => {
  const closers = createClosers(quietLog());
  let runs = 0;
  closers.add('part', async () => {
    runs += 1;
    await new Promise((resolve) => setImmediate(resolve));
  });
  const [first, second] = [closers.close(), closers.close()];
  expect(first).toBe(second);
  await first;
  await closers.close();
  expect(runs).toBe(1);
  expect(() => closers.add('late', () => {})).toThrow(/already closing/);
});

test('a closer that throws is logged by name and the ones below it still run', async () => {
  const log = quietLog();
  const closers = createClosers(log);
  const order = [];
  closers.add('log file', () => order.push('log file'));
  closers.add('edge mirror', () => {
    throw new Error('socket already gone');
  });
  closers.add('show', async () => order.push('show'));
  await closers.close();
  expect(order).toEqual(['show', 'log file']);
  expect(log.warnings).toEqual(['stopping edge mirror failed: socket already gone']);
});
