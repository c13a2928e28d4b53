// `npm run edge:dev` arguments (docs/tutorials/first-edge-show.md#run-it-locally-no-cloudflare-account-needed): --port and
// --persist-to keep the direct runtime; anything else still goes to `wrangler dev`.

import { parseDevArgs } from '../../edge-worker/scripts/dev-args.js';

test('no arguments: the direct runtime on 8787', () => {
  expect(parseDevArgs([])).toEqual({ mode: 'direct', port: 8787, portGiven: false, persistTo: null, wranglerArgs: [] });
});

test('--port and --persist-to, spaced or with =, keep the direct runtime', () => {
  expect(parseDevArgs(['--port', '8788', '--persist-to', '/tmp/x'])).toMatchObject({
    mode: 'direct',
    port: 8788,
    portGiven: true,
    persistTo: '/tmp/x',
  });
  expect(parseDevArgs(['--port=0', '--persist-to=/tmp/y'])).toMatchObject({ mode: 'direct', port: 0, persistTo: '/tmp/y' });
});

test('any other flag, a bad value or --wrangler runs wrangler dev with the arguments as given', () => {
  expect(parseDevArgs(['--port', '8788', '--local-protocol', 'https'])).toMatchObject({
    mode: 'wrangler',
    port: 8788,
    wranglerArgs: ['--port', '8788', '--local-protocol', 'https'],
  });
  expect(parseDevArgs(['--port', 'abc'])).toMatchObject({ mode: 'wrangler', port: 8787, wranglerArgs: ['--port', 'abc'] });
  expect(parseDevArgs(['--port', '99999'])).toMatchObject({ mode: 'wrangler' });
  expect(parseDevArgs(['--wrangler', '--port', '8790'])).toMatchObject({
    mode: 'wrangler',
    port: 8790,
    portGiven: true,
    wranglerArgs: ['--port', '8790'],
  });
});
