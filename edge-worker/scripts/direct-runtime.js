// The edge worker on ONE local workerd process, without wrangler's dev proxy: Miniflare serves
// the worker itself on the requested host and port.
//
// Why (docs/tutorials/first-edge-show.md#run-it-locally-no-cloudflare-account-needed): `wrangler dev` puts a second workerd (its dev
// proxy) in front of the worker, and that proxy costs about five open files per WebSocket
// viewer (measured: 7,383 fds at 1,500 viewers), so it hits a 20,000 open-files limit near
// 4,000 viewers, answers `Too many open files` and drops everyone. The worker's own workerd
// costs about two per viewer. This is the runtime `npm run edge:dev`, `npm run bench:edge` and
// the Artillery edge runs use.
//
// The worker is read from wrangler.jsonc with wrangler's own config reader
// (`unstable_getMiniflareWorkerOptions`: bindings, Durable Objects, assets and
// run_worker_first), bundled with esbuild like `wrangler dev` does, and started by Miniflare.

import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { watchWorkerdExits } from './workerd-exits.js';

const CONFIG_PATH = fileURLToPath(new URL('../wrangler.jsonc', import.meta.url));

/**
 * @typedef {object} DirectRuntimeOptions
 * @property {string} token PUBLISH_TOKEN for this run
 * @property {string | false} [persistDir] Durable Object storage root, laid out like `wrangler dev
 *   --persist-to` (`<dir>/v3/do/…`); false keeps it in memory
 * @property {Record<string, string | number>} [vars] overrides for wrangler.jsonc vars
 * @property {string} [host] 127.0.0.1 unless told otherwise
 * @property {number} [port] 0 picks a free port
 * @property {'info' | 'warn'} [logLevel] Miniflare's log level (info: "Ready on …")
 */

/** Bundle the worker's entry (edge-worker/src/index.js and what it imports from core/) into one ES module. */
async function bundle(main) {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    entryPoints: [main],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    external: ['cloudflare:*'],
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0].text;
}

/**
 * Start the worker and wait until it serves.
 * @param {DirectRuntimeOptions} options
 * @returns {Promise<{ url: URL, miniflare: any, reload: () => Promise<void>, dispose: () => Promise<void>,
 *   onCrash: (listener: (exit: import('./workerd-exits.js').WorkerdExit) => void) => void }>}
 */
export async function startDirectRuntime({ token, persistDir = false, vars = {}, host = '127.0.0.1', port = 0, logLevel = 'warn' }) {
  const { unstable_readConfig, unstable_getMiniflareWorkerOptions } = await import('wrangler');
  // The Miniflare that wrangler itself depends on (the same workerd build as `wrangler dev`).
  const miniflarePath = createRequire(import.meta.resolve('wrangler')).resolve('miniflare');
  const { Miniflare, Log, LogLevel, convertV4MiniflareOptions } = await import(pathToFileURL(miniflarePath).href);
  const config = unstable_readConfig({ config: CONFIG_PATH });
  const { workerOptions, main } = unstable_getMiniflareWorkerOptions(config);
  // modulesRules describe how wrangler would load unbundled files; the bundle is one module.
  const worker = { ...workerOptions };
  delete worker.modulesRules;
  /** @type {Record<string, unknown>} */
  const bindings = { ...worker.bindings, PUBLISH_TOKEN: token };
  for (const [name, value] of Object.entries(vars)) bindings[name] = String(value);
  /** @param {string} contents the bundled worker */
  const options = (contents) =>
    convertV4MiniflareOptions({
      host,
      port,
      log: new Log(logLevel === 'info' ? LogLevel.INFO : LogLevel.WARN),
      // Request logging keeps a socket to Miniflare (in Node) open per WebSocket and ~2 more fds
      // in workerd (measured: 4 fds per viewer with it, 2 without); wrangler dev turns it off too.
      logRequests: false,
      // A fixed placeholder `request.cf` instead of fetching one from workers.cloudflare.com.
      cf: false,
      ...(persistDir ? { resourcePersistencePath: join(persistDir, 'v3') } : {}),
      // The worker's name keys its Durable Object storage (`v3/do/tutti-edge-Show`), as in wrangler dev.
      workers: [{ ...worker, name: config.name, modules: [{ type: 'ESModule', path: main, contents }], bindings }],
    });
  // A workerd that ends while reload() or dispose() runs was stopped (or failed to start) on
  // purpose: those report their own errors. Any other end is a crash (supervise-workerd.js).
  let ownStops = 0;
  /** @type {Set<(exit: import('./workerd-exits.js').WorkerdExit) => void>} */
  const crashListeners = new Set();
  const stopWatching = watchWorkerdExits((exit) => {
    if (exit.killedHere || ownStops > 0) return;
    for (const listener of crashListeners) listener(exit);
  });
  /**
   * @template T
   * @param {() => Promise<T>} work
   */
  const stoppingOnPurpose = async (work) => {
    ownStops += 1;
    try {
      return await work();
    } finally {
      ownStops -= 1;
    }
  };
  const miniflare = new Miniflare(options(await bundle(main)));
  const url = await miniflare.ready.catch(async (err) => {
    stopWatching();
    throw err;
  });
  return {
    url,
    miniflare,
    /** Bundle the worker again and restart workerd with it, on the same port and storage. */
    reload: async () => {
      const contents = await bundle(main);
      await stoppingOnPurpose(() => miniflare.setOptions(options(contents)));
    },
    /** Call `listener` when workerd ends on its own (killed from outside, OOM, a workerd bug). */
    onCrash: (listener) => {
      crashListeners.add(listener);
    },
    dispose: () =>
      stoppingOnPurpose(async () => {
        stopWatching();
        await miniflare.dispose();
      }),
  };
}
