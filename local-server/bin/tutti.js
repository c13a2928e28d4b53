#!/usr/bin/env node
// Entry point of `npx tutti`. Needs Node ≥ 22 (npm scripts and npx run the pinned Node 24).
const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  process.stderr.write(
    `tutti needs Node 22 or newer (this is ${process.versions.node}). Run it through npx or npm scripts, which use the Node pinned in node_modules.\n`,
  );
  process.exit(1);
}
const { dropOutputToClosedReaders } = await import('../src/closed-output.js');
dropOutputToClosedReaders();
const { runCli } = await import('../src/cli.js');
const result = await runCli(process.argv.slice(2));
if (typeof result === 'number') process.exitCode = result;
