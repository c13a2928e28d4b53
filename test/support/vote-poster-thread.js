// Polling phones that vote with POST /vote (docs/reference/audience-protocol.md#audience-voices), run in a worker thread
// so they keep sending while the test stalls the main thread's event loop (and with it the show
// server). Half of them vote on keep-alive connections the server accepted earlier, half open a
// new connection for the vote (each after a new connection that asks GET /time). workerData: { port, at (wall-clock ms to send at), keepAlive,
// fresh: vote bodies }. Posts { ready } once the keep-alive connections have had an answer,
// { sentAt } once every vote is in the kernel, then { answers }: HTTP statuses, keep-alive first.
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { port, at, keepAlive, fresh } = workerData;
const post = (body) =>
  `POST /vote HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** A client socket and the statuses of the responses it received, in order. */
function connection() {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  const statuses = () => [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
  socket.on('data', (d) => {
    received += d.toString();
  });
  socket.on('error', () => {});
  return { socket, statuses };
}

const waitFor = (check) =>
  new Promise((resolve) => {
    const poll = () => (check() ? resolve() : setTimeout(poll, 1));
    poll();
  });

const kept = keepAlive.map(() => connection());
for (const c of kept) c.socket.write('GET /time HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
await waitFor(() => kept.every((c) => c.statuses().length === 1));
parentPort.postMessage({ ready: true });

await waitFor(() => Date.now() >= at);
const writes = [];
const written = (socket, text) => writes.push(new Promise((resolve) => socket.write(text, resolve)));
kept.forEach((c, i) => written(c.socket, post(keepAlive[i])));
const opened = fresh.map((body) => {
  // A phone syncing its clock on a new connection too: the server takes these in between the votes.
  written(connection().socket, 'GET /time HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  const c = connection();
  written(c.socket, post(body));
  return c;
});
await Promise.all(writes);
parentPort.postMessage({ sentAt: Date.now() });

await waitFor(() => kept.every((c) => c.statuses().length === 2) && opened.every((c) => c.statuses().length === 1));
parentPort.postMessage({ answers: [...kept.map((c) => c.statuses()[1]), ...opened.map((c) => c.statuses()[0])] });
for (const c of [...kept, ...opened]) c.socket.destroy();
