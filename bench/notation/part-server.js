// bench:notation-join worker: the real show server with a corpus file's notation already engraved
// (as at a venue: the score loaded, then the musicians arrive), alone in this process so the
// tablets and the link in the runner do not share its event loop.
//
// argv: --file MUSICXML --work DIR

import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLog, startShowServer } from '../../local-server/index.js';
import { serveParent, tellParent } from '../lib/child-ipc.js';
import { importNotation } from './import-notation.js';

const { values } = parseArgs({ options: { file: { type: 'string' }, work: { type: 'string' } } });
const work = String(values.work);
const { scorePath, score } = await importNotation(String(values.file), path.join(work, 'score'));
const server = await startShowServer({
  scorePath,
  host: '127.0.0.1',
  port: 0,
  controlPort: 0,
  stateFile: null,
  notationCacheDir: path.join(work, 'cache'),
  log: createLog({ print: () => {} }),
  oscTargets: [],
});
await server.notation.settled();

serveParent({ cpu: () => process.cpuUsage() }, { onExit: () => server.close() });

tellParent('ready', {
  port: Number(new URL(server.audienceUrl).port),
  partKey: server.partKey,
  parts: [...score.parts.map((/** @type {{ id: string }} */ p) => p.id), 'all'],
});
