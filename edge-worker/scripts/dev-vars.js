// edge-worker/.dev.vars: the local publish token for `npm run edge:dev` (docs/explanation/edge-design.md).
// It is a secret (whoever has it can publish to the dev edge), so the file is created readable
// by its owner only (0600) and an existing one with looser permissions is tightened
// (docs/explanation/threat-model.md).

import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { weakTokenReason } from '../src/guards/publish-guard.js';

const OWNER_ONLY = 0o600;

/**
 * The PUBLISH_TOKEN in `file`, adding a random one (and creating the file) when there is none.
 * The file ends up with mode 0600 either way. A token under 16 characters is refused (the worker
 * would refuse every publish with it): throws with the reason and how to fix it.
 * @param {string} file path of .dev.vars
 * @param {(line: string) => void} [log]
 * @returns {string} the token
 */
export function ensureDevToken(file, log = () => {}) {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const found = /^\s*PUBLISH_TOKEN\s*=\s*"?([^"\r\n]+)"?\s*$/m.exec(text)?.[1];
  let token = found;
  if (!token) {
    token = `dev-${randomBytes(18).toString('base64url')}`;
    const line = `PUBLISH_TOKEN=${token}\n`;
    if (text) appendFileSync(file, (text.endsWith('\n') ? '' : '\n') + line);
    else
      writeFileSync(file, `# Local secrets for wrangler dev (gitignored). Production: wrangler secret put PUBLISH_TOKEN\n${line}`, {
        mode: OWNER_ONLY,
      });
    log(`created ${file} with a new dev publish token`);
  }
  // `mode` applies only when the file is created (and is masked by umask): set it explicitly.
  if ((statSync(file).mode & 0o777) !== OWNER_ONLY) chmodSync(file, OWNER_ONLY);
  const weak = weakTokenReason('PUBLISH_TOKEN', token);
  if (weak) throw new Error(`${file}: ${weak.replace(/ \(e\.g\..*$/, '')}; delete the line and a new one is made`);
  return token;
}
