// Builds dist/audience from the audience sources, for `tutti serve` and `npm start` run from a
// source checkout whose dist/ was deleted. The builder (web/audience/build.js, esbuild)
// is a development tool: the desktop app ships the prebuilt dist/audience instead and never
// loads this (docs/how-to/desktop-app.md#building-the-desktop-app), hence the import on demand.

/**
 * Build the audience web app into dist/audience and the part page into dist/part.
 * @returns {Promise<void>}
 */
export async function buildAudienceFromSource() {
  const { buildAudienceApp } = await import('../../../web/audience/build.js');
  await buildAudienceApp({ quiet: true });
  // The musicians' part page too (dist/part, served under /part/<key>/).
  const { buildPartApp } = await import('../../../web/audience/build-part.js');
  await buildPartApp({ quiet: true });
}
