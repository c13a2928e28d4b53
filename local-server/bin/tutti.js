#!/usr/bin/env node
// Entry point of `tutti` (npx, npm scripts, npm link). Needs Node ≥ 22: an older Node (the
// system's, running a linked bin from a composer's folder) hands over to the Node pinned in the
// checkout's node_modules (pinned-node.js; docs/how-to/tutti-on-your-path.md).
import { fileURLToPath } from 'node:url';
import { runOnPinnedNode } from './pinned-node.js';

const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  if (!runOnPinnedNode(fileURLToPath(import.meta.url), process.argv.slice(2))) {
    process.stderr.write(
      `tutti needs Node 22 or newer (this is ${process.versions.node}), and found no pinned Node in its checkout's node_modules: run npm install there, or run tutti through npx or npm scripts.\n`,
    );
    process.exit(1);
  }
} else {
  const { dropOutputToClosedReaders } = await import('../src/cli/closed-output.js');
  dropOutputToClosedReaders();
  const { runCli } = await import('../src/cli.js');
  const result = await runCli(process.argv.slice(2));
  if (typeof result === 'number') process.exitCode = result;
}
