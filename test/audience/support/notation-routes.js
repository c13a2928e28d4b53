// Interim, test only: answers the part page's notation requests (../shared/SPEC.md §10:
// notation/<part>.json?layout=L and notation/<part>/<n>.svg?layout=L) inside the browser context
// with a Verovio engraving made here (test/support/notation-fixture.js), until the venue server's
// own routes land (branch h-notation-server); then the tests use those. Counts what was asked.

import { engraveFixture } from '../../support/notation-fixture.js';

/**
 * @param {import('playwright-core').BrowserContext} context
 * @param {{ file: string, score: { bars: number, printedBars?: any[], parts?: Array<{ id: string }> }, layouts?: Record<string, object> }} options
 *   `layouts`: Verovio page options per layout name, to override the fixture's (e.g. more pages)
 */
export async function routeNotation(context, { file, score, layouts = {} }) {
  const engraved = new Map();
  const asked = [];
  const engrave = (part, layout) => {
    const key = `${part}|${layout}`;
    if (!engraved.has(key)) {
      const partIndex = part === 'all' ? null : (score.parts ?? []).findIndex((p) => p.id === part);
      engraved.set(key, engraveFixture({ file, partIndex, layout, score, options: layouts[layout] }));
    }
    return engraved.get(key);
  };
  // Until the score field `notation` lands with the server's routes, the cue table says the score has one.
  await context.route(/\/parts\.json$/, async (route) => {
    const res = await route.fetch();
    const table = await res.json();
    return route.fulfill({ response: res, body: JSON.stringify({ ...table, score: { ...table.score, notation: true } }) });
  });
  await context.route(/\/notation\//, async (route) => {
    const url = new URL(route.request().url());
    const layout = url.searchParams.get('layout') ?? 'tablet-landscape';
    asked.push(`${url.pathname.replace(/^.*\/notation\//, '')}?${layout}`);
    const json = /\/notation\/([^/]+)\.json$/.exec(url.pathname);
    const svg = /\/notation\/([^/]+)\/(\d+)\.svg$/.exec(url.pathname);
    if (json) {
      const { json: map } = await engrave(decodeURIComponent(json[1]), layout);
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(map) });
    }
    if (svg) {
      const { svgs } = await engrave(decodeURIComponent(svg[1]), layout);
      const page = svgs[Number(svg[2]) - 1];
      return page ? route.fulfill({ status: 200, contentType: 'image/svg+xml', body: page }) : route.fulfill({ status: 404, body: '' });
    }
    return route.fulfill({ status: 404, body: '' });
  });
  return { asked, engrave };
}
