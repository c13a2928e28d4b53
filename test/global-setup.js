// Runs once before every suite. Builds whatever the suites serve (the audience app) so a
// fresh clone needs nothing but `npm install && npm test`.
import { existsSync } from 'node:fs';

export default async function globalSetup() {
  const build = new URL('../local-server/audience/build.js', import.meta.url);
  if (existsSync(build)) {
    const { buildAudienceApp } = await import(build.href);
    await buildAudienceApp({ quiet: true });
  }
}
