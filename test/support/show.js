// A show server for tests: 127.0.0.1, free ports, a known token, playing, quiet log.
import { startShowServer } from '../../local-server/src/server.js';
import { createLog } from '../../local-server/src/logs/log.js';

/** Start a show server on 127.0.0.1 with the given score (default: the demo score). */
export function startShow(options = {}) {
  return startShowServer({
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    token: 'test-token',
    autoplay: true,
    oscTargets: [],
    log: createLog(),
    ...options,
  });
}
