// `npm run edge:deploy`: build the audience app, then `wrangler deploy`. Extra arguments go to
// wrangler (e.g. `npm run edge:deploy -- --dry-run`). Needs `wrangler login` (or
// CLOUDFLARE_API_TOKEN) and, once, `wrangler secret put PUBLISH_TOKEN` (see docs/explanation/edge-design.md).

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureAudienceAssets } from './ensure-assets.js';
import { weakTokenReason } from '../src/guards/publish-guard.js';

const CONFIG = fileURLToPath(new URL('../wrangler.jsonc', import.meta.url));
const WRANGLER = fileURLToPath(new URL('../../node_modules/wrangler/bin/wrangler.js', import.meta.url));

// The deployed worker refuses to publish with a PUBLISH_TOKEN under 16 characters (publish-guard.js);
// a token handed to this script in the environment (as CI pipes it to `wrangler secret put`) is
// checked before anything is deployed.
const weak = process.env.PUBLISH_TOKEN ? weakTokenReason('PUBLISH_TOKEN', process.env.PUBLISH_TOKEN) : null;
if (weak) {
  console.error(`edge:deploy: ${weak}`);
  process.exit(2);
}

try {
  await ensureAudienceAssets({ allowPlaceholder: false });
} catch (err) {
  console.error(`edge:deploy: ${err.message}`);
  process.exit(1);
}
const child = spawn(process.execPath, [WRANGLER, 'deploy', '-c', CONFIG, ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code) => {
  if (code === 0 && !process.argv.includes('--dry-run')) {
    console.log('Deployed. If this is the first deploy, set the publish token once:');
    console.log('  openssl rand -base64 32 | npx wrangler secret put PUBLISH_TOKEN -c edge-worker/wrangler.jsonc');
    console.log('(at least 16 characters: the worker refuses to publish with a shorter one)');
  }
  process.exit(code ?? 1);
});
