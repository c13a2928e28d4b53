// `npm run bench:operator`'s flags (bench/operator/options.js): the phones offer permessage-deflate
// at the venue, as browsers do, and not on the edge, which refuses it as deployed (edge-worker/
// docs/explanation/lean-stream.md#websocket-compression) but, locally, behind Miniflare's entry worker, would
// compress every message once per phone; either can be asked for.
import { expect, test } from '@jest/globals';
import { parseArgs } from '../../bench/operator/options.js';

test('--deflate: offer at the venue, none on the edge by default; either on request', () => {
  expect(parseArgs([])).toMatchObject({ target: 'venue', deflate: 'offer' });
  expect(parseArgs(['--target', 'edge'])).toMatchObject({ target: 'edge', deflate: 'none' });
  expect(parseArgs(['--target', 'edge', '--deflate', 'offer'])).toMatchObject({ deflate: 'offer' });
  expect(parseArgs(['--deflate', 'none'])).toMatchObject({ target: 'venue', deflate: 'none' });
  expect(() => parseArgs(['--deflate', 'gzip'])).toThrow('--deflate takes offer or none');
});
