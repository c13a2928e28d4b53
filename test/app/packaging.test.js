// electron-builder.yml cannot be exercised here (no Electron binary, no packaging tools for
// every OS), so this checks what a packaging run would trip on: the icon it converts for every
// platform, and that each folder the config ships still exists under that name.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const config = readFileSync(`${root}electron-builder.yml`, 'utf8');

test('the build resources hold a 1024×1024 PNG icon (source of the .icns, .ico and Linux icons)', () => {
  const dir = /^\s+buildResources:\s*(\S+)/m.exec(config)?.[1];
  expect(dir).toBe('app/build');
  const png = readFileSync(`${root}${dir}/icon.png`);
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a'); // PNG signature
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
});

test('every folder listed under files: and extraResources exists', () => {
  const listed = [...config.matchAll(/^\s+- (?:from: )?"?([a-z][\w./-]*?)(?:\/\*\*.*)?"?\s*(?:#.*)?$/gm)].map((m) => m[1]);
  const paths = listed.filter((p) => p.includes('/') || ['scores', 'core', 'package.json'].includes(p));
  expect(paths).toEqual(expect.arrayContaining(['package.json', 'app/main', 'app/preload', 'app/renderer', 'local-server/src', 'core', 'dist/audience', 'scores']));
  for (const p of paths) expect({ p, exists: existsSync(`${root}${p}`) }).toEqual({ p, exists: true });
});
