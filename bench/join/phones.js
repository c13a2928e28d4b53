// Benchmark worker for `npm run bench:join`: phones arriving at given times, each doing what the
// audience app's first visit does (docs/results.md#how-fast-how-small): GET / (the page, brotli as
// a phone's browser asks), then its hashed CSS and JS in parallel on the same keep-alive
// connections (a browser's 6 per host), then the lean WebSocket (`/ws?stream=lean`,
// permessage-deflate) and GET /time together, until the first state (the snapshot) is parsed.
// Each phone records its arrival, when the page, the assets and the first state were done. The
// sockets stay open (the phones stay in the show) until the runner ends the worker. Only
// connects to the URL it is given (127.0.0.1).
//
// Commands: storm {audienceUrl, wsUrl, arrivals: [wall-clock ms]} → results.

import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { serveParent } from '../lib/child-ipc.js';

const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** A phone that has no first state this long after arriving counts as failed. */
const PHONE_TIMEOUT_MS = 60_000;
const BROWSER_HEADERS = {
  'user-agent': 'Mozilla/5.0 (Linux; Android 14) tutti-bench-join',
  'accept-language': 'en',
  'accept-encoding': 'gzip, deflate, br',
};

/** @type {WebSocket[]} */
const sockets = [];
/** @type {http.Agent[]} */
const agents = [];

/**
 * GET a path on the phone's own agent; resolves with status, body bytes and headers.
 * @returns {Promise<{ status: number, body: Buffer, headers: http.IncomingHttpHeaders }>}
 */
function get(agent, url, accept) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { ...BROWSER_HEADERS, accept } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
      res.on('error', reject);
    });
    req.setTimeout(PHONE_TIMEOUT_MS, () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
  });
}

/** The page's text, decoded as the browser would. */
function pageText({ body, headers }) {
  const encoding = headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

/** The hashed stylesheet and script the page links (relative to /). */
function assetsOf(html) {
  return [...html.matchAll(/(?:href|src)="(assets\/[^"]+\.(?:css|js))"/g)].map((m) => m[1]);
}

/** Open the lean WebSocket; resolves when the first snapshot has been parsed. */
function firstState(wsUrl) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { handshakeTimeout: PHONE_TIMEOUT_MS });
    sockets.push(ws);
    const timer = setTimeout(() => reject(new Error('no first state')), PHONE_TIMEOUT_MS);
    ws.on('message', (data) => {
      const envelope = JSON.parse(data.toString());
      if (envelope.type !== 'snapshot') return;
      clearTimeout(timer);
      resolve(envelope);
    });
    ws.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    ws.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`closed ${code} before the first state`));
    });
  });
}

/** One phone's first visit, timed from its arrival. */
async function visit({ audienceUrl, wsUrl }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  agents.push(agent);
  const arrived = clock();
  const page = await get(agent, `${audienceUrl}/`, 'text/html');
  if (page.status !== 200) throw new Error(`GET / answered ${page.status}`);
  const pageAt = clock();
  const assets = assetsOf(pageText(page));
  if (assets.length < 2) throw new Error('the page links no hashed CSS and JS');
  const files = await Promise.all(assets.map((path) => get(agent, `${audienceUrl}/${path}`, path.endsWith('.css') ? 'text/css' : '*/*')));
  if (files.some((f) => f.status !== 200)) throw new Error('an asset failed');
  const assetsAt = clock();
  // The page shows the state when the snapshot is parsed; GET /time (clock sync) runs beside it.
  const [firstAt, time] = await Promise.all([firstState(wsUrl).then(() => clock()), get(agent, `${audienceUrl}/time`, 'application/json')]);
  if (time.status !== 200) throw new Error(`GET /time answered ${time.status}`);
  const bytes = page.body.length + files.reduce((a, f) => a + f.body.length, 0);
  return { arrived, page: pageAt - arrived, assets: assetsAt - pageAt, ws: firstAt - assetsAt, first: firstAt - arrived, bytes };
}

serveParent(
  {
    /** Every phone arrives at its time; resolves when all have their first state or failed. */
    async storm({ audienceUrl, wsUrl, arrivals }) {
      const cpu0 = process.cpuUsage();
      const errors = {};
      const results = await Promise.all(
        arrivals.map(async (at) => {
          await sleep(Math.max(0, at - clock()));
          try {
            return await visit({ audienceUrl, wsUrl });
          } catch (error) {
            const message = error?.message ?? String(error);
            errors[message] = (errors[message] ?? 0) + 1;
            return null;
          }
        }),
      );
      const cpu = process.cpuUsage(cpu0);
      return {
        phones: results.filter((r) => r !== null),
        failed: results.filter((r) => r === null).length,
        errors,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
      };
    },
  },
  {
    onExit: () => {
      for (const ws of sockets) ws.terminate();
      for (const agent of agents) agent.destroy();
    },
  },
);
