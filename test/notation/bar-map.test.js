// The bar map on a real server (docs/reference/notation.md#the-bar-map): every performance bar of
// a file with repeats and 1st/2nd endings maps to the printed measure it plays, a repeated measure
// appears once per pass with the same box, and each box holds that measure's notes on the page.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import path from 'node:path';
import { CORPUS_XML, importInto, startNotationServer, tempFolder } from '../support/notation-server.js';

/**
 * The x of every notehead of the measure Verovio numbers `n`, in the page's outer user units,
 * read straight from the SVG (its viewBoxes and the page margin), not through measure-boxes.js.
 */
function noteheadXs(svg, n) {
  const outer = Number(/<svg[^>]*viewBox="0 0 ([\d.]+)/.exec(svg)?.[1]);
  const inner = Number(/class="definition-scale"[^>]*viewBox="0 0 ([\d.]+)/.exec(svg)?.[1]);
  const dx = Number(/class="page-margin" transform="translate\(([\d.]+)/.exec(svg)?.[1]);
  const start = svg.indexOf(`class="measure" data-n="${n}"`);
  const end = svg.indexOf('class="measure"', start + 10);
  const chunk = svg.slice(start, end < 0 ? undefined : end);
  return [...chunk.matchAll(/class="notehead">\s*<use [^>]*transform="translate\((-?[\d.]+),/g)].map(
    (m) => ((Number(m[1]) + dx) * outer) / inner,
  );
}

const cases = [
  // 1, 2 (1st ending), 1 again, 3 (2nd ending)
  { file: 'test_repeat_volta_simple.musicxml', printed: [1, 2, 1, 3] },
  // |: 1 :| 2 |: 3 4 :|
  { file: 'OSMD_function_Test_Repeat.musicxml', printed: [1, 1, 2, 3, 4, 3, 4] },
];

describe.each(cases)('$file', ({ file, printed }) => {
  let folder;
  let running;
  let map;
  beforeAll(async () => {
    folder = await tempFolder();
    const { scorePath } = await importInto(path.join(CORPUS_XML, file), folder.dir);
    running = await startNotationServer({ scorePath, cacheDir: path.join(folder.dir, 'cache') });
    await running.server.notation.settled();
    const res = await fetch(`${running.base}/piano.json`);
    expect(res.status).toBe(200);
    map = await res.json();
  }, 60_000);
  afterAll(async () => {
    await running?.server.close();
    await folder?.close();
  });

  test('one entry per performance bar, on the printed measure it plays', () => {
    expect(map.bars.map((b) => b.bar)).toEqual(printed.map((_, i) => i + 1));
    expect(map.bars.map((b) => b.printed)).toEqual(printed);
    expect(map).toMatchObject({ pages: 1, width: expect.any(Number), height: expect.any(Number) });
  });

  test('a repeated measure has the same page and box on every pass; different measures do not overlap', () => {
    const byPrinted = new Map();
    for (const { bar, printed: n, ...box } of map.bars) {
      if (byPrinted.has(n)) expect({ bar, box }).toEqual({ bar, box: byPrinted.get(n) });
      else byPrinted.set(n, box);
    }
    const boxes = [...byPrinted.values()].sort((a, b) => a.x - b.x);
    for (let i = 1; i < boxes.length; i += 1) {
      if (boxes[i].y !== boxes[i - 1].y) continue; // another system
      expect(boxes[i].x).toBeGreaterThanOrEqual(boxes[i - 1].x + boxes[i - 1].w - 0.2);
    }
    for (const box of boxes) expect(box.w > 10 && box.h > 10 && box.x >= 0 && box.y >= 0).toBe(true);
  });

  test("each box holds its measure's notes on the page", async () => {
    const svg = await (await fetch(`${running.base}/piano/1.svg`)).text();
    for (const { printed: n, x, w } of map.bars) {
      const xs = noteheadXs(svg, n);
      expect(xs.length).toBeGreaterThan(0);
      for (const nx of xs) expect({ n, inside: nx >= x && nx <= x + w }).toEqual({ n, inside: true });
    }
  });
});
