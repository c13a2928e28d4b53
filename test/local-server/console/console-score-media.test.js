// The editor's phone preview loads the score's images and sounds from the control listener
// without the token (an <img> cannot send it): only images and sounds the loaded score lists or
// its upload folder holds, inside the score's folder, same-origin only; nothing else answers.

import { mkdtempSync, mkdirSync, writeFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startShow } from '../../support/show.js';
import { editorScore } from '../../support/editor-score.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
let dir;
let show;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tutti-score-media-'));
  mkdirSync(join(dir, 'media', 'editor-test'), { recursive: true });
  mkdirSync(join(dir, 'other'), { recursive: true });
  writeFileSync(join(dir, 'media', 'editor-test', 'listed.png'), PNG);
  writeFileSync(join(dir, 'media', 'editor-test', 'uploaded.png'), PNG);
  writeFileSync(join(dir, 'media', 'editor-test', 'sound.wav'), Buffer.from('RIFF'));
  writeFileSync(join(dir, 'media', 'editor-test', 'notes.txt'), 'not media');
  writeFileSync(join(dir, 'other', 'private.png'), PNG);
  writeFileSync(join(tmpdir(), 'tutti-outside.png'), PNG);
  symlinkSync(join(tmpdir(), 'tutti-outside.png'), join(dir, 'media', 'editor-test', 'link.png'));
  const score = { ...editorScore(), assets: [{ id: 'listed', kind: 'image', src: 'media/editor-test/listed.png' }] };
  writeFileSync(join(dir, 'score.json'), JSON.stringify(score));
  show = await startShow({ autoplay: false, scorePath: join(dir, 'score.json') });
}, 60_000);
afterAll(async () => {
  await show?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path) => fetch(`${show.controlUrl}/console/score/media/${path}`);

test('a listed image and a freshly uploaded one load, same-origin only', async () => {
  for (const path of ['media/editor-test/listed.png', 'media/editor-test/uploaded.png']) {
    const res = await get(path);
    expect([path, res.status]).toEqual([path, 200]);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);
  }
});

test('a sound of the upload folder loads too: the preview plays it (its Play button)', async () => {
  const res = await get('media/editor-test/sound.wav');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^audio\//);
  expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(await res.text()).toBe('RIFF');
});

test('nothing else: not listed, not an image or sound, a link out, a path out', async () => {
  for (const path of [
    'other/private.png',
    'media/editor-test/notes.txt',
    'media/editor-test/link.png',
    'media/editor-test/..%2F..%2Fother%2Fprivate.png',
    '..%2Fscore.json',
  ]) {
    expect([path, (await get(path)).status]).toEqual([path, 404]);
  }
});
