// The venue ↔ edge publisher protocol lives once, in core/protocol/publisher.js: both ends import
// it and neither keeps its own copy of a close code or the alive frame. The e2e tests
// (test/edge/publish.test.js, uplink.test.js, venue-status.test.js) check the real worker and the
// real uplink against the same constants.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ALIVE_EVERY_MS, ALIVE_FRAME, EdgeMessage, MIN_ALIVE_MS, PublisherClose, alivePeriod } from '#core/protocol/publisher.js';

const root = new URL('../../../', import.meta.url).pathname;

/** Every .js file under a folder of the repo, with its text. */
function sources(folder) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) out.push({ path, text: readFileSync(join(root, path), 'utf8') });
    }
  };
  walk(folder);
  return out;
}

test('the protocol values: private close codes, a JSON alive frame the edge can echo verbatim', () => {
  expect(PublisherClose.REPLACED).toBe(4001);
  expect(PublisherClose.SILENT).toBe(4002);
  for (const code of Object.values(PublisherClose)) expect(code >= 4000 && code <= 4999).toBe(true);
  expect(JSON.parse(ALIVE_FRAME)).toEqual({ type: 'alive' });
  expect(Object.values(EdgeMessage)).not.toContain('alive');
  expect(new Set(Object.values(EdgeMessage)).size).toBe(Object.values(EdgeMessage).length);
  expect(ALIVE_EVERY_MS).toBeGreaterThanOrEqual(MIN_ALIVE_MS);
});

test('alivePeriod obeys a sane hello and nothing else', () => {
  expect(alivePeriod(ALIVE_EVERY_MS)).toBe(ALIVE_EVERY_MS);
  expect(alivePeriod('250')).toBe(250);
  for (const bad of [undefined, null, 0, 50, MIN_ALIVE_MS - 1, -1000, NaN, Infinity, 'soon', {}]) expect(alivePeriod(bad)).toBeNull();
});

test('both ends import the module and keep no copy of its close codes or alive frame', () => {
  const files = [...sources('local-server/src'), ...sources('edge-worker/src')];
  const importers = files.filter((f) => f.text.includes("'#core/protocol/publisher.js'")).map((f) => f.path);
  // The venue's uplink (close codes, replies, alive frame) and the edge root's publisher link (close codes, alive frame).
  expect(importers).toEqual(
    expect.arrayContaining([
      'local-server/src/edge/uplink.js',
      'local-server/src/edge/edge-replies.js',
      'local-server/src/edge/uplink-keepalive.js',
      'edge-worker/src/show/publisher-link.js',
    ]),
  );
  const copies = files.filter((f) => /\b400[12]\b|\{"type":"alive"\}/.test(f.text)).map((f) => f.path);
  expect(copies).toEqual([]);
});
