// The console's edge Media row (web/console/edge-media-text.js) says what is wrong when the
// edge is unreachable or refuses the token, instead of "this score has no media files". The
// statuses come from a real show server whose mirror points at a closed port and at a real
// HTTP server that answers 401 to the publish handshake.
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { startShow } from '../support/show.js';
import { waitFor } from '../support/clients.js';
import { edgeMediaText } from '../../web/console/edge-media-text.js';
import { freePort } from '../support/free-port.js';

const TIDAL = fileURLToPath(new URL('../../scores/tidal-lines.score.json', import.meta.url));
const closers = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function showWithEdge(url) {
  const server = await startShow({ scorePath: TIDAL, autoplay: false });
  closers.push(() => server.close());
  await server.edge.enable(url, 'some-publish-token');
  return server;
}

test('an unreachable edge: the row says the link is down, not that there is no media', async () => {
  const server = await showWithEdge(`http://127.0.0.1:${await freePort()}`);
  const status = await waitFor(
    () => {
      const s = server.status().edge;
      return s.lastError ? s : null;
    },
    8000,
    'a connect error',
  );
  const text = edgeMediaText(status);
  expect(text).not.toMatch(/no media files/);
  expect(text).toMatch(/^not uploaded: CONNECT: .*ECONNREFUSED/);
});

test('an edge that refuses the token: the row says so', async () => {
  const edge = http.createServer((req, res) => res.writeHead(404).end());
  edge.on('upgrade', (req, socket) => socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
  await new Promise((r) => edge.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => edge.close(r)));
  const server = await showWithEdge(`http://127.0.0.1:${edge.address().port}`);
  const status = await waitFor(
    () => {
      const s = server.status().edge;
      return s.lastError ? s : null;
    },
    8000,
    'the refusal',
  );
  expect(edgeMediaText(status)).toBe('not uploaded: UNAUTHORIZED: the edge refused the token (check --edge-token)');
});

test('once a pass has run, a score without media says so, and one with media counts its files', () => {
  expect(
    edgeMediaText({ connected: true, media: { uploaded: 0, total: 0, bytes: 0, state: 'idle', lastError: null, checked: true } }),
  ).toBe('this score has no media files');
  expect(
    edgeMediaText({ connected: true, media: { uploaded: 2, total: 3, bytes: 2048, state: 'syncing', lastError: null, checked: true } }),
  ).toBe('2 of 3 files on the edge (2 KB), uploading…');
  expect(
    edgeMediaText({ connected: true, media: { uploaded: 0, total: 0, bytes: 0, state: 'idle', lastError: null, checked: false } }),
  ).toBe('checking the edge…');
});
