// `npm run edge:dev`: the edge worker on local workerd at http://127.0.0.1:8787 with a dev
// publish token. Creates edge-worker/.dev.vars (gitignored, mode 0600: dev-vars.js) on first run and prints the token.
// Extra arguments go to `wrangler dev` (e.g. `npm run edge:dev -- --port 8788`).

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureDevToken } from './dev-vars.js';
import { ensureAudienceAssets } from './ensure-assets.js';

const DEV_VARS = fileURLToPath(new URL('../.dev.vars', import.meta.url));
const CONFIG = fileURLToPath(new URL('../wrangler.jsonc', import.meta.url));
const WRANGLER = fileURLToPath(new URL('../../node_modules/wrangler/bin/wrangler.js', import.meta.url));

const token = ensureDevToken(DEV_VARS, (line) => console.log(line));
const assets = await ensureAudienceAssets({ log: (line) => console.log(line) });
const args = process.argv.slice(2);
const portArg = args.indexOf('--port');
const port = portArg >= 0 ? args[portArg + 1] : '8787';

console.log(`edge worker: http://127.0.0.1:${port}  (audience app: ${assets})`);
console.log(`publish to it: npx tutti serve --edge http://127.0.0.1:${port} --edge-token ${token}`);

const wranglerArgs = [WRANGLER, 'dev', '-c', CONFIG, '--ip', '127.0.0.1', ...(portArg >= 0 ? [] : ['--port', port]), ...args];
const child = spawn(process.execPath, wranglerArgs, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
