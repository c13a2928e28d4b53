// Attack: a score folder (from a zip, a clone) holds `media/leak.wav -> <a file outside it>`.
// Before: `tutti validate` passed it, the venue served the linked file at /media/… to the whole
// LAN and the edge upload copied it to the public URL. Now the real path (links followed) must
// stay inside the score's folder everywhere (local-server/src/score/media-file.js, docs/explanation/threat-model.md).
// Real files and links on disk, real sockets, real workerd.

import { mkdtemp, mkdir, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../local-server/src/cli.js';
import { startShow } from '../support/show.js';
import { startEdge, waitFor } from '../edge/helpers.js';
import { freePort } from '../support/free-port.js';

const SECRET = "root:x:0:0:the laptop owner's secret file\n";
const WAV = Buffer.alloc(2000, 3);

let work;
let scoreFile;
let secretFile;

/** A score listing media/leak.wav (and media/alias.wav when asked), in its own folder. */
async function writeScore(folder, srcs) {
  const file = join(folder, 'leak.score.json');
  await writeFile(
    file,
    JSON.stringify({
      format: 'tutti-score/1',
      id: 'leak',
      title: 'Leak',
      bars: 4,
      meter: [{ bar: 1, beats: 4, unit: 4 }],
      tempo: [{ at: { bar: 1 }, bpm: 120 }],
      assets: srcs.map((src, i) => ({ id: `a${i}`, kind: 'audio', src })),
      cues: srcs.map((_, i) => ({ at: { bar: 1 + i }, audio: { asset: `a${i}` } })),
    }),
  );
  return file;
}

/** Replace media/leak.wav by a link to the secret file outside the folder. */
async function plantLink() {
  await unlink(join(work, 'score', 'media', 'leak.wav')).catch(() => {});
  await symlink(secretFile, join(work, 'score', 'media', 'leak.wav'));
}

async function restoreFile() {
  await unlink(join(work, 'score', 'media', 'leak.wav')).catch(() => {});
  await writeFile(join(work, 'score', 'media', 'leak.wav'), WAV);
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'tutti-symlink-'));
  await mkdir(join(work, 'score', 'media'), { recursive: true });
  secretFile = join(work, 'secret.wav');
  await writeFile(secretFile, SECRET);
  scoreFile = await writeScore(join(work, 'score'), ['media/leak.wav']);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function validate(file) {
  const out = [];
  const err = [];
  const code = await runCli(['validate', file], { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, text: [...out, ...err].join('\n') };
}

test('symlink-escape: tutti validate refuses a media link that leaves the score folder (and one to /etc/passwd)', async () => {
  await plantLink();
  const outside = await validate(scoreFile);
  expect(outside.code).toBe(1);
  expect(outside.text).toMatch(/assets\[0\]\.src: media\/leak\.wav is a link to .*secret\.wav, outside the score's folder/);

  await unlink(join(work, 'score', 'media', 'leak.wav'));
  await symlink('/etc/passwd', join(work, 'score', 'media', 'leak.wav'));
  const passwd = await validate(scoreFile);
  expect(passwd.code).toBe(1);
  expect(passwd.text).toMatch(/is a link to \/etc\/passwd, outside the score's folder/);

  // A relative link climbing out with ".." is the same escape.
  await unlink(join(work, 'score', 'media', 'leak.wav'));
  await symlink('../../secret.wav', join(work, 'score', 'media', 'leak.wav'));
  expect((await validate(scoreFile)).code).toBe(1);
  await restoreFile();
});

test('symlink-escape: a link that stays inside the score folder is still fine', async () => {
  await restoreFile();
  const folder = join(work, 'score');
  await symlink('leak.wav', join(folder, 'media', 'alias.wav'));
  const file = await writeScore(folder, ['media/leak.wav', 'media/alias.wav']);
  const result = await validate(file);
  expect(result).toMatchObject({ code: 0 });
  const server = await startShow({ scorePath: file });
  try {
    const res = await fetch(`${server.audienceUrl}/media/media/alias.wav`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(WAV)).toBe(true);
  } finally {
    await server.close();
    await unlink(join(folder, 'media', 'alias.wav'));
    await writeScore(folder, ['media/leak.wav']);
  }
});

test('symlink-escape: the venue /media route does not follow a link planted after the score was loaded', async () => {
  await restoreFile();
  const server = await startShow({ scorePath: scoreFile });
  try {
    const before = await fetch(`${server.audienceUrl}/media/media/leak.wav`);
    expect(before.status).toBe(200);
    await before.arrayBuffer();

    await plantLink();
    const res = await fetch(`${server.audienceUrl}/media/media/leak.wav`);
    const body = await res.text();
    expect(res.status).toBe(404);
    expect(body).not.toContain('secret');
    const metrics = await (await fetch(`${server.controlUrl}/metrics`, { headers: { authorization: 'Bearer test-token' } })).text();
    expect(metrics).toMatch(/tutti_bad_input_total\{source="media_link"\} 1/);
    expect(server.log.recent().some((e) => e.level === 'warn' && /media\/leak\.wav links outside the score's folder/.test(e.msg))).toBe(
      true,
    );
  } finally {
    await server.close();
    await restoreFile();
  }
});

test('symlink-escape: the edge upload does not copy a linked file to the public edge (real workerd)', async () => {
  await restoreFile();
  const edge = await startEdge({ port: await freePort() });
  const server = await startShow({ scorePath: scoreFile });
  try {
    await plantLink();
    await server.edge.enable(edge.url, edge.token);
    await waitFor(() => server.log.recent().some((e) => /edge media: cannot read media\/leak\.wav/.test(e.msg)), {
      timeoutMs: 20_000,
      what: 'the media pass to refuse the link',
    });
    await server.edge.mediaIdle();
    const res = await fetch(`${edge.url}/media/media/leak.wav`);
    const body = await res.text();
    expect(body).not.toContain('secret');
    expect(res.status).toBe(404);
    const listing = await (await fetch(`${edge.url}/publish/media`, { headers: { authorization: `Bearer ${edge.token}` } })).json();
    expect(listing.files).toEqual([]);
  } finally {
    await server.close();
    await edge.stop();
    await restoreFile();
  }
}, 90_000);
