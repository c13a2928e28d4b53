// Reading the repository's Markdown the way GitHub renders it: headings outside code fences,
// their anchor slugs (lower case, punctuation dropped, spaces to hyphens, "-1", "-2" for repeats),
// relative links, and prose paragraphs. Shared by the docs tests and tools/docs/cite-docs.js.
import { execFileSync } from 'node:child_process';

/**
 * GitHub's anchor for a heading's text.
 * @param {string} text the heading as written (Markdown allowed)
 * @returns {string}
 */
export function slugOf(text) {
  const plain = text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase();
  return plain.replace(/[^\p{L}\p{N}\p{M} _-]/gu, '').replace(/ /g, '-');
}

/**
 * The lines of a Markdown text with a flag for those inside a fenced code block.
 * @param {string} text
 * @returns {{ line: string, n: number, fenced: boolean }[]}
 */
export function linesOf(text) {
  let fence = false;
  return text.split('\n').map((line, i) => {
    const marker = /^\s*(```|~~~)/.test(line);
    if (marker) fence = !fence;
    return { line, n: i + 1, fenced: fence || marker };
  });
}

/**
 * Every heading's anchor on a page, numbered as GitHub numbers repeats.
 * @param {string} text
 * @returns {Set<string>}
 */
export function anchorsOf(text) {
  const seen = new Map();
  const anchors = new Set();
  for (const { line, fenced } of linesOf(text)) {
    const m = !fenced && /^#{1,6} (.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slugOf(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  for (const m of text.matchAll(/<a (?:name|id)="([^"]+)"/g)) anchors.add(m[1]);
  return anchors;
}

/**
 * The relative links of a page (inline code and fenced code skipped), with their line.
 * @param {string} text
 * @returns {{ href: string, n: number }[]}
 */
export function linksOf(text) {
  const links = [];
  for (const { line, n, fenced } of linesOf(text)) {
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (!/^[a-z][a-z0-9+.-]*:/i.test(m[1])) links.push({ href: m[1], n });
    }
  }
  return links;
}

/**
 * Prose paragraphs and list items (not code, tables, headings or HTML), each joined to one line.
 * @param {string} text
 * @returns {{ text: string, n: number }[]}
 */
export function paragraphsOf(text) {
  const out = [];
  let cur = null;
  const flush = () => cur && out.push(cur) && (cur = null);
  for (const { line, n, fenced } of linesOf(text)) {
    const t = line.trim();
    if (fenced || t === '' || t.startsWith('|') || t.startsWith('#') || t.startsWith('<')) {
      flush();
      continue;
    }
    if (/^([-*+]|\d+\.) /.test(t)) flush();
    if (cur) cur.text += ` ${t}`;
    else cur = { text: t, n };
  }
  flush();
  return out;
}

/**
 * Stretches of prose longer than `limit` bytes with no heading (docs/README.md#writing-a-page):
 * code blocks, tables and HTML comments are not counted, nor the lines in `skipped` (blocks a
 * tool writes, such as docs/results.md's generated ones). Blank lines count, as on the page.
 * @param {string} text
 * @param {number} limit bytes of prose allowed between two headings
 * @param {{ start: number, end: number }[]} [skipped] 0-based line ranges, ends included
 * @returns {{ n: number, bytes: number }[]} each stretch's first line (its heading's) and size
 */
export function longStretchesOf(text, limit, skipped = []) {
  const out = [];
  let stretch = { n: 1, bytes: 0 };
  let comment = false;
  const close = () => stretch.bytes > limit && out.push(stretch);
  for (const { line, n, fenced } of linesOf(text)) {
    const inComment = comment || line.trimStart().startsWith('<!--');
    comment = inComment && !line.includes('-->');
    if (fenced || inComment || line.trimStart().startsWith('|')) continue;
    if (skipped.some((b) => n - 1 >= b.start && n - 1 <= b.end)) continue;
    if (/^#{1,6} /.test(line)) {
      close();
      stretch = { n, bytes: 0 };
    } else stretch.bytes += Buffer.byteLength(line) + 1;
  }
  close();
  return out;
}

/**
 * The Markdown files git tracks (and new ones not ignored), relative to root.
 * @param {string} root the repository root
 * @returns {string[]}
 */
export function markdownFiles(root) {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: root, encoding: 'utf8' });
  return [...new Set(out.split('\n').filter((p) => p && !p.startsWith('node_modules/')))];
}
