// Runs once before every suite. Builds whatever the suites serve (the audience app) and finds
// the headless Chromium the browser suites drive (unpacking the npm one if the machine has no
// system Chromium: done here, once, so parallel workers never race to unpack it), so a fresh
// clone needs nothing but `npm install && npm test`.
import { existsSync } from 'node:fs';
import { findChromium } from '../tools/chromium.js';

export default async function globalSetup() {
  const build = new URL('../web/audience/build.js', import.meta.url);
  if (existsSync(build)) {
    const { buildAudienceApp } = await import(build.href);
    await buildAudienceApp({ quiet: true });
  }
  // The musicians' part page (docs/how-to/part-pages.md#part-pages), served by the venue under /part/<key>/.
  const buildPart = new URL('../web/audience/build-part.js', import.meta.url);
  if (existsSync(buildPart)) await (await import(buildPart.href)).buildPartApp({ quiet: true });
  const { path, source } = await findChromium();
  process.env.TUTTI_CHROMIUM = path; // workers inherit it and skip the search
  if (source === 'npm') console.log(`\nbrowser suites: headless Chromium from @sparticuz/chromium (${path})`);
}
