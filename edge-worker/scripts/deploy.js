// `npm run edge:deploy`: build the audience app, then `wrangler deploy`. Extra arguments go to
// wrangler (e.g. `npm run edge:deploy -- --dry-run`). Needs `wrangler login` (or
// CLOUDFLARE_API_TOKEN) and, once, `wrangler secret put PUBLISH_TOKEN` (see edge-worker/README.md).

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureAudienceAssets } from './ensure-assets.js';

const CONFIG = fileURLToPath(new URL('../wrangler.jsonc', import.meta.url));
const WRANGLER = fileURLToPath(new URL('../../node_modules/wrangler/bin/wrangler.js', import.meta.url));

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
    console.log('  npx wrangler secret put PUBLISH_TOKEN -c edge-worker/wrangler.jsonc');
  }
  process.exit(code ?? 1);
});
