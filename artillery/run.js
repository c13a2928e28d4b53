#!/usr/bin/env node
// npm run loadtest -- <scenario> [--target URL] [--users N] [--duration S] [--output FILE] [--start-local]
//
// Runs one Artillery scenario (or, for zscore-profile, ZScore's three cases one after another)
// and writes one JSON result for `npm run loadtest:report`. It starts nothing by surprise:
// without --target or --start-local it says what to start and exits 2.

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRunArgs, USAGE } from './lib/args.js';
import { SCENARIO_DIR, ZSCORE_USER_STEPS } from './lib/catalog.js';
import { artilleryPlan, expectedSeconds } from './lib/phases.js';
import { echoWithResultPath } from './lib/part-path.js';
import { runArtillery } from './lib/artillery-child.js';
import { isLoopbackUrl } from './lib/loopback.js';
import {
  startTuttiServe,
  startLocalEdgeWorker,
  devPublishToken,
  waitForShow,
  keepPlaying,
  expectAdvancing,
  LOAD_SCORE,
} from './lib/local-stack.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
export const RESULTS_DIR = join(HERE, 'results');

/** What to start by hand, per kind of scenario. */
function whatToStart(scenario) {
  const name = scenario.name;
  const score = 'scores/union-rose-load.score.json';
  if (scenario.via === 'local') {
    return `loadtest: ${name} needs a running show server; nothing was started.
  Start one:    npx tutti serve --port 8080 --autoplay --score ${score}
  then run:     npm run loadtest -- ${name} --target http://127.0.0.1:8080
  or let this command start (and afterwards stop) one on a free port:
                npm run loadtest -- ${name} --start-local`;
  }
  return `loadtest: ${name} needs an edge worker with a show publishing to it; nothing was started.
  Start the edge:   npm run edge:dev          (local workerd on http://127.0.0.1:8787; its token is PUBLISH_TOKEN in edge-worker/.dev.vars)
  and a show:       npx tutti serve --port 8080 --autoplay --score ${score} --edge http://127.0.0.1:8787 --edge-token <PUBLISH_TOKEN>
  then run:         npm run loadtest -- ${name} --target http://127.0.0.1:8787
  For a deployed edge: --target https://<your-worker>  (plus --start-local --edge-token T to publish a show to it from here)
  Or let this command start local workerd and a publishing show itself:
                    npm run loadtest -- ${name} --start-local`;
}

const stamp = () => new Date().toISOString().replace(/[:]/g, '-').replace(/\..+$/, '');
const say = (line) => process.stderr.write(`${line}\n`);
/** A path as the user can paste it: relative when below the working directory. */
const shown = (file) => (relative(process.cwd(), file).startsWith('..') ? file : relative(process.cwd(), file));

/**
 * @param {string[]} argv
 * @returns {Promise<number>} exit code
 */
export async function main(argv) {
  const parsed = parseRunArgs(argv);
  if ('help' in parsed) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if ('error' in parsed) {
    say(`loadtest: ${parsed.error}\nRun "npm run loadtest -- --help" for the scenarios and flags.`);
    return 2;
  }
  const o = parsed.options;
  const { scenario } = o;
  if (!o.target && !o.startLocal) {
    say(whatToStart(scenario));
    return 2;
  }
  let edgeToken = o.edgeToken;
  if (o.startLocal && scenario.via === 'edge' && o.target) {
    edgeToken ??= isLoopbackUrl(o.target) ? devPublishToken() : null;
    if (!edgeToken) {
      say(
        `loadtest: --start-local with an edge --target publishes a show to ${o.target}, which needs its publish token: add --edge-token T (or set TUTTI_EDGE_TOKEN)`,
      );
      return 2;
    }
  }

  const users = o.users ?? scenario.defaults.users;
  const ramp = o.ramp ?? scenario.defaults.ramp;
  const hold = o.duration ?? scenario.defaults.hold;
  if (scenario.kind === 'profile' && !ZSCORE_USER_STEPS.includes(users)) {
    say(`loadtest: note: ZScore published figures for ${ZSCORE_USER_STEPS.join(' / ')} users; ${users} has no exact counterpart.`);
  }
  const output = resolve(o.output ?? join(RESULTS_DIR, `${scenario.name}-${stamp()}.json`));
  mkdirSync(dirname(output), { recursive: true });

  const stops = [];
  const controller = new AbortController();
  const onSignal = () => {
    say('\nloadtest: interrupted; stopping Artillery and anything started here…');
    controller.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const startedAt = new Date().toISOString();
  const started = { server: false, edge: false };
  let base = o.target;
  try {
    if (o.startLocal) {
      const score = o.score ? resolve(o.score) : (scenario.score ?? LOAD_SCORE);
      let edgeUrl = null;
      if (scenario.via === 'edge') {
        if (o.target) {
          edgeUrl = o.target;
        } else {
          say('loadtest: starting the edge worker on local workerd…');
          const edge = await startLocalEdgeWorker({ log: () => {} });
          stops.push(() => edge.stop());
          started.edge = true;
          edgeUrl = edge.url;
          edgeToken = edge.token;
          say(`loadtest: edge worker at ${edge.url} (pid ${edge.pid})`);
        }
      }
      say(`loadtest: starting tutti serve (${relative(ROOT, score)}, autoplay${edgeUrl ? `, publishing to ${edgeUrl}` : ''})…`);
      const serve = await startTuttiServe({ score, edgeUrl, edgeToken, log: (line) => say(`  [tutti serve] ${line}`) });
      stops.push(() => serve.stop());
      started.server = true;
      if (serve.controlUrl) {
        const player = keepPlaying({ controlUrl: serve.controlUrl, token: serve.token, log: (line) => say(`loadtest: ${line}`) });
        stops.push(async () => player.stop());
      }
      say(`loadtest: tutti serve at ${serve.url} (pid ${serve.pid})`);
      base ??= serve.url;
      if (scenario.via === 'edge') base = edgeUrl;
    }
    const first = await waitForShow(base, { timeoutMs: o.startLocal ? 30_000 : 10_000 });
    say(`loadtest: ${base} is serving "${first?.data?.score?.title ?? 'a show'}" (epoch ${first?.epoch}, seq ${first?.seq})`);

    const parts = scenario.parts ?? [{ name: scenario.name, kind: scenario.kind, transport: scenario.transport }];
    const runs = [];
    for (const part of parts) {
      if (controller.signal.aborted) break;
      const plan = { kind: part.kind, users, ramp: o.ramp ?? part.ramp ?? ramp, hold: part.hold ?? hold };
      const { overrides, variables } = artilleryPlan(plan);
      const target = part.transport === 'ws' ? `${base.replace(/^http/, 'ws')}/ws` : base;
      // Viewers measure pushes: make sure there are some before spending minutes on a silent show.
      if (part.kind !== 'pageload') await expectAdvancing(base);
      const partFile = parts.length > 1 ? `${output}.${part.name}.part.json` : `${output}.part.json`;
      say(
        `\n▶ ${scenario.name}${parts.length > 1 ? ` · ${part.name}` : ''}: ${users} users against ${target} (about ${expectedSeconds(plan)} s)`,
      );
      const run = await runArtillery({
        script: join(SCENARIO_DIR, scenario.file),
        target,
        output: partFile,
        overrides,
        variables,
        environment: part.environment,
        scenarioName: part.scenarioName,
        signal: controller.signal,
        echo: echoWithResultPath(partFile, output, (line) => process.stdout.write(`${line}\n`)),
      });
      let data = null;
      try {
        data = JSON.parse(readFileSync(partFile, 'utf8'));
      } catch {
        data = null;
      }
      rmSync(partFile, { force: true });
      runs.push({ part, plan, target, run, data });
    }

    const exitCode = controller.signal.aborted ? 130 : runs.reduce((code, r) => code || r.run.exitCode || (r.data ? 0 : 1), 0);
    const meta = {
      format: 'tutti-loadtest/1',
      scenario: scenario.name,
      kind: scenario.kind,
      via: scenario.via,
      target: base,
      users,
      ramp,
      hold: scenario.kind === 'viewers' ? hold : null,
      started,
      score: o.startLocal ? relative(ROOT, o.score ? resolve(o.score) : (scenario.score ?? LOAD_SCORE)) : null,
      startedAt,
      finishedAt: new Date().toISOString(),
      exitCode,
      command: `npm run loadtest -- ${argv.join(' ')}`,
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? 'unknown',
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        platform: `${os.platform()} ${os.release()}`,
        node: process.version,
      },
      parts: runs.map((r) => ({
        name: r.part.name,
        kind: r.part.kind,
        target: r.target,
        ...r.plan,
        exitCode: r.run.exitCode,
        checks: r.run.checks,
        artillery: r.run.args.slice(0, -1),
      })),
    };
    if (runs.every((r) => !r.data)) {
      say('loadtest: Artillery wrote no result; see its output above.');
      return exitCode || 1;
    }
    const result = scenario.parts
      ? { tutti: meta, parts: Object.fromEntries(runs.filter((r) => r.data).map((r) => [r.part.name, r.data])) }
      : { ...runs[0].data, tutti: meta };
    writeFileSync(output, `${JSON.stringify(result, null, 1)}\n`);
    const failed = meta.parts.flatMap((p) => p.checks.filter((c) => !c.ok).map((c) => `${p.name}: ${c.check}`));
    say(`\nloadtest: result written to ${shown(output)}`);
    say(`loadtest: ${exitCode === 0 ? 'all checks passed' : `FAILED (exit ${exitCode})${failed.length ? `: ${failed.join('; ')}` : ''}`}`);
    say(`Report:    npm run loadtest:report -- ${shown(output)}`);
    return exitCode;
  } catch (err) {
    say(`loadtest: ${err.message}`);
    return 1;
  } finally {
    for (const stop of stops.reverse()) await stop().catch((err) => say(`loadtest: could not stop cleanly: ${err.message}`));
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
