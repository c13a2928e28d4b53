// Renders the console's mark (web/console/favicon.svg) to app/build/icon.png, 1024×1024: the one
// file electron-builder needs to make the macOS .icns, the Windows .ico and the Linux icon set.
// Run it after changing the SVG: node app/scripts/render-icon.js (Chromium: tools/chromium.js)

import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../../tools/chromium.js';

const SIZE = 1024;
const svgPath = fileURLToPath(new URL('../../web/console/favicon.svg', import.meta.url));
const outPath = fileURLToPath(new URL('../build/icon.png', import.meta.url));

const svg = await readFile(svgPath, 'utf8');
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  // Transparent page; the SVG scaled to the full square (its own rounded rect is the background).
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${SIZE}" height="${SIZE}" `)}</body></html>`,
  );
  const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: SIZE, height: SIZE } });
  await mkdir(fileURLToPath(new URL('../build/', import.meta.url)), { recursive: true });
  await writeFile(outPath, png);
  console.log(`wrote ${outPath} (${SIZE}×${SIZE}, ${png.length} bytes)`);
} finally {
  await browser.close();
}
