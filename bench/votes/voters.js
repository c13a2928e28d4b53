// A vote-storm client process (bench/votes/run.js): opens `count` WebSocket viewers on one /ws
// (the venue's or the edge's), records the push latency of every delta (receive − envelope t),
// and on `storm` has every viewer vote once at a random moment of the window, some of them twice
// (a repeat must not count), recording the answers. Exits when the runner goes away.

import WebSocket from 'ws';
import { serveParent } from '../lib/child-ipc.js';

const CONNECT_CONCURRENCY = 64;

/** @type {{ ws: WebSocket, device: string, answers: number, refused: Record<string, number> }[]} */
const viewers = [];
/** push latency samples of deltas: [t, latency] */
const samples = [];
let unexpectedCloses = 0;
let stopping = false;
let lastVoteAt = 0;
let votesSent = 0;

function openOne(url, device) {
  return new Promise((resolve) => {
    const viewer = {
      ws: new WebSocket(url, { perMessageDeflate: false }),
      device,
      answers: 0,
      ok: 0,
      refused: {},
      seen: new Set(),
      onSeen: null,
    };
    const { ws } = viewer;
    let settled = false;
    const settle = (ok) => {
      if (settled) return;
      settled = true;
      resolve(ok ? viewer : null);
    };
    ws.on('open', () => settle(true));
    ws.on('message', (data) => {
      const now = Date.now();
      const text = String(data);
      const type = /"type":"(\w+)"/.exec(text)?.[1];
      // A phone votes for a prompt it has seen: note the prompt keys that reach this viewer.
      const key = /"key":"([A-Za-z0-9_~-]+)"/.exec(text)?.[1];
      if (key && type !== 'voted' && !viewer.seen.has(key)) {
        viewer.seen.add(key);
        viewer.onSeen?.(key);
      }
      if (type === 'delta') {
        const t = Number(/"t":(\d+)/.exec(text)?.[1]);
        if (samples.length < 2_000_000) samples.push([t, now - t]);
      } else if (type === 'voted') {
        viewer.answers += 1;
        if (text.includes('"ok":true')) viewer.ok += 1;
        else {
          const reason = /"reason":"(\w+)"/.exec(text)?.[1] ?? '?';
          viewer.refused[reason] = (viewer.refused[reason] ?? 0) + 1;
        }
      }
    });
    ws.on('error', () => settle(false));
    ws.on('close', () => {
      if (!stopping && settled) unexpectedCloses += 1;
      settle(false);
    });
  });
}

serveParent(
  {
    /** @param {{ url: string, count: number, prefix: string }} p */
    async connect({ url, count, prefix }) {
      const started = Date.now();
      let failed = 0;
      let next = 0;
      async function lane() {
        while (next < count) {
          const i = next;
          next += 1;
          const viewer = await openOne(url, `${prefix}${String(i).padStart(16, '0')}`);
          if (viewer) viewers.push(viewer);
          else failed += 1;
        }
      }
      await Promise.all(Array.from({ length: Math.min(CONNECT_CONCURRENCY, count) }, lane));
      return { connected: viewers.length, failed, ms: Date.now() - started };
    },
    /**
     * Every viewer votes once between `from` and `from + windowMs` (this machine's clock, which is
     * the server's too), option i mod options; one in `repeatEvery` sends the same vote again 50 ms
     * later. Like a phone, a viewer votes only once the prompt has reached it: a viewer whose
     * stream is late votes as soon as it arrives.
     * @param {{ key: string, options: string[], from: number, windowMs: number, repeatEvery: number }} p
     */
    storm({ key, options, from, windowMs, repeatEvery }) {
      const expected = Object.fromEntries(options.map((o) => [o, 0]));
      viewers.forEach((viewer, i) => {
        const option = options[i % options.length];
        expected[option] += 1;
        const frame = JSON.stringify({ type: 'vote', key, option, device: viewer.device });
        const at = from + Math.random() * windowMs;
        const send = () => {
          if (viewer.ws.readyState !== WebSocket.OPEN) return;
          viewer.ws.send(frame);
          votesSent += 1;
          lastVoteAt = Math.max(lastVoteAt, Date.now());
        };
        const go = () => {
          send();
          if (i % repeatEvery === 0) setTimeout(send, 50);
        };
        setTimeout(
          () => {
            if (viewer.seen.has(key)) go();
            else viewer.onSeen = (seen) => seen === key && go();
          },
          Math.max(0, at - Date.now()),
        );
      });
      return { expected, viewers: viewers.length };
    },
    /**
     * @param {{ calm: [number, number], storm: [number, number] }} p the two periods (by envelope t) whose push latency to report
     */
    report({ calm, storm }) {
      const within = ([from, to]) => samples.filter(([t]) => t >= from && t < to).map(([, ms]) => ms);
      const refused = {};
      let answers = 0;
      let ok = 0;
      for (const v of viewers) {
        answers += v.answers;
        ok += v.ok;
        for (const [k, n] of Object.entries(v.refused)) refused[k] = (refused[k] ?? 0) + n;
      }
      return { votesSent, lastVoteAt, answers, ok, refused, unexpectedCloses, calm: within(calm), storm: within(storm) };
    },
  },
  {
    onExit() {
      stopping = true;
      for (const v of viewers) v.ws.terminate();
    },
  },
);
