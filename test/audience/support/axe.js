// axe-core (the npm package) injected into a real Chromium page, for the accessibility suite
// (docs/reference/accessibility-and-languages.md#accessibility). The page's CSP allows no inline script, so the
// engine goes in through the DevTools protocol (page.evaluate), which the CSP does not govern.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let source;

/**
 * The WCAG 2.0/2.1/2.2 A and AA rules, the AAA ones axe has (7:1 contrast: a phone read at arm's
 * length in a dark hall, often dimmed) and axe's best practices (landmarks, headings, regions).
 */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'wcag2aaa', 'best-practice'];

/**
 * Run axe on the page as it is now.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<Array<{ id: string, impact: string, help: string, targets: string[] }>>} the violations, short
 */
export async function audit(page) {
  source ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => typeof (/** @type {any} */ (window).axe) === 'object'))) await page.evaluate(source);
  const result = await page.evaluate(
    (tags) => /** @type {any} */ (window).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }),
    AXE_TAGS,
  );
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

/** One line per violation, for a failing expectation's message and the report. */
export const describeViolations = (violations) => violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.targets.join(', ')}`);
