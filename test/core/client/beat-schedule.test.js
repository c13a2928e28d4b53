import { createBeatSchedule } from '#core/client/beat-schedule.js';

describe('beat schedule', () => {
  test('releases items at their time, not on arrival', () => {
    const s = createBeatSchedule();
    expect(s.add('position', 1300, 'b1', { beat: 1 })).toBe(true);
    expect(s.add('position', 1800, 'b2', { beat: 2 })).toBe(true);
    expect(s.nextAt()).toBe(1300);
    expect(s.due(1299)).toEqual([]);
    expect(s.due(1300)).toEqual([{ kind: 'position', at: 1300, key: 'b1', payload: { beat: 1 }, late: 0 }]);
    expect(s.nextAt()).toBe(1800);
    expect(s.due(1805)).toMatchObject([{ key: 'b2', late: 5 }]);
    expect(s.nextAt()).toBeNull();
    expect(s.size()).toBe(0);
  });

  test('collapsing kinds release only the newest due item; audio releases every due cue', () => {
    const s = createBeatSchedule();
    s.add('position', 100, 'p1', 1);
    s.add('position', 200, 'p2', 2);
    s.add('audio', 150, 'a1', 'x');
    s.add('audio', 180, 'a2', 'y');
    const out = s.due(1000);
    expect(out.map((i) => i.key)).toEqual(['a1', 'a2', 'p2']);
  });

  test('duplicates of a queued or any released item are refused', () => {
    const s = createBeatSchedule();
    s.add('view', 100, 'v1', {});
    expect(s.add('view', 100, 'v1', {})).toBe(false);
    s.due(100);
    expect(s.add('view', 100, 'v1', {})).toBe(false);
    expect(s.add('view', 100, 'v2', {})).toBe(true);
  });

  test('re-adding the window of views after one was shown never ends on an older view', () => {
    // The page re-adds every view sent ahead when `ahead` changes mid-chunk (a later chunk in pieces).
    const s = createBeatSchedule();
    const window = () => [
      ['w|100', 100, 'A'],
      ['w|200', 200, 'B'],
      ['w|300', 300, 'C'],
    ];
    for (const [key, at, view] of window()) s.add('view', at, key, view);
    expect(s.due(150).map((i) => i.payload)).toEqual(['A']);
    expect(s.due(250).map((i) => i.payload)).toEqual(['B']);
    // A piece of the next chunk arrives: the same views again, and one more.
    for (const [key, at, view] of [...window(), ['w|400', 400, 'D']]) s.add('view', at, key, view);
    expect(s.due(260)).toEqual([]); // not A again: B stays on screen
    expect(s.due(350).map((i) => i.payload)).toEqual(['C']);
    expect(s.due(450).map((i) => i.payload)).toEqual(['D']);
  });

  test('items a collapsing kind passed over count as released', () => {
    const s = createBeatSchedule();
    s.add('view', 100, 'a', 'A');
    s.add('view', 200, 'b', 'B');
    expect(s.due(250).map((i) => i.payload)).toEqual(['B']);
    expect(s.add('view', 100, 'a', 'A')).toBe(false);
    expect(s.due(260)).toEqual([]);
  });

  test('released keys are remembered up to four times the queue limit', () => {
    const s = createBeatSchedule({ limit: 2 });
    for (let i = 0; i < 9; i += 1) {
      s.add('audio', i, `k${i}`, i);
      s.due(i);
    }
    expect(s.add('audio', 8, 'k8', 8)).toBe(false);
    expect(s.add('audio', 1, 'k1', 1)).toBe(false);
    expect(s.add('audio', 0, 'k0', 0)).toBe(true); // forgotten: the last 8 keys are remembered
  });

  test('an earlier item supersedes queued later ones of its kind (seek, stop, tempo change)', () => {
    const s = createBeatSchedule();
    s.add('position', 1000, 'b10', 10);
    s.add('position', 1500, 'b11', 11);
    s.add('view', 1500, 'v', {});
    s.add('position', 1200, 'b1', 1); // stop: bar 1 now
    expect(s.due(5000).map((i) => i.key)).toEqual(['b1', 'v']); // oldest first, the later beats are gone
  });

  test('queue length per kind is bounded and non-finite times are refused', () => {
    const s = createBeatSchedule({ limit: 3 });
    for (let i = 0; i < 10; i += 1) s.add('position', i, `k${i}`, i);
    expect(s.size()).toBe(3);
    expect(s.nextAt()).toBe(7);
    expect(s.add('position', NaN, 'nan', 0)).toBe(false);
  });

  test('clear forgets queued and released items', () => {
    const s = createBeatSchedule();
    s.add('position', 1, 'a', 0);
    s.due(1);
    s.add('view', 5, 'v', 0);
    s.clear('view');
    expect(s.size()).toBe(0);
    expect(s.add('position', 1, 'a', 0)).toBe(false);
    s.clear();
    expect(s.add('position', 1, 'a', 0)).toBe(true);
  });
});
