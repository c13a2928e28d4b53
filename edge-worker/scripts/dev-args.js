// Arguments of `npm run edge:dev` (docs/tutorials/first-edge-show.md#run-it-locally-no-cloudflare-account-needed): `--port N` and
// `--persist-to DIR` are understood by the direct runtime; anything else, or `--wrangler`, means
// "run `wrangler dev` itself with these arguments" (the documented way to pass wrangler flags).

const DEFAULT_PORT = 8787;

/**
 * @typedef {{ mode: 'direct' | 'wrangler', port: number, portGiven: boolean, persistTo: string | null, wranglerArgs: string[] }} DevArgs
 */

/**
 * @param {string[]} argv the arguments after `npm run edge:dev --`
 * @returns {DevArgs}
 */
export function parseDevArgs(argv) {
  const wranglerArgs = argv.filter((arg) => arg !== '--wrangler');
  let mode = /** @type {'direct' | 'wrangler'} */ (wranglerArgs.length === argv.length ? 'direct' : 'wrangler');
  let port = DEFAULT_PORT;
  let portGiven = false;
  /** @type {string | null} */
  let persistTo = null;
  for (let i = 0; i < wranglerArgs.length; i += 1) {
    const [flag, inline] = wranglerArgs[i].split(/=(.*)/s, 2);
    const value = inline ?? wranglerArgs[i + 1];
    if (flag === '--port' && value !== undefined && /^\d+$/.test(value) && Number(value) <= 65535) {
      port = Number(value);
      portGiven = true;
    } else if (flag === '--persist-to' && value !== undefined && value !== '' && !value.startsWith('--')) {
      persistTo = value;
    } else {
      mode = 'wrangler'; // a flag only wrangler dev knows (or a bad value: wrangler explains it)
      continue;
    }
    if (inline === undefined) i += 1;
  }
  return { mode, port, portGiven, persistTo, wranglerArgs };
}
