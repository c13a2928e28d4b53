// `npm run edge:dev`: the edge worker on local workerd at http://127.0.0.1:8787 with a dev
// publish token. Creates edge-worker/.dev.vars (gitignored) on first run and prints the token.
// Extra arguments go to `wrangler dev` (e.g. `npm run edge:dev -- --port 8788`).

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureAudienceAssets } from './ensure-assets.js';

const DEV_VARS = fileURLToPath(new URL('../.dev.vars', import.meta.url));
const CONFIG = fileURLToPath(new URL('../wrangler.jsonc', import.meta.url));
const WRANGLER = fileURLToPath(new URL('../../node_modules/wrangler/bin/wrangler.js', import.meta.url));

function devToken() {
  const text = existsSync(DEV_VARS) ? readFileSync(DEV_VARS, 'utf8') : '';
  const found = /^\s*PUBLISH_TOKEN\s*=\s*"?([^"\r\n]+)"?\s*$/m.exec(text)?.[1];
  if (found) return found;
  const token = `dev-${randomBytes(18).toString('base64url')}`;
  const line = `PUBLISH_TOKEN=${token}\n`;
  if (text) appendFileSync(DEV_VARS, (text.endsWith('\n') ? '' : '\n') + line);
  else writeFileSync(DEV_VARS, `# Local secrets for wrangler dev (gitignored). Production: wrangler secret put PUBLISH_TOKEN\n${line}`);
  console.log(`created ${DEV_VARS} with a new dev publish token`);
  return token;
}

const token = devToken();
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
