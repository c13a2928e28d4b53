#!/usr/bin/env node
// Doc citations in code comments. Code used to cite a doc by file and section title
// (`README.md, "Part pages"`); since the docs split (issue 37) it cites a page and anchor
// (`docs/how-to/part-pages.md#part-pages`), which test/docs/doc-citations.test.js resolves.
// `node tools/docs/cite-docs.js` lists the old-style citations and where each now points;
// `--write` rewrites them in comments only (never code), keeping every line where it was, and
// makes them links in the prose of the pages the split wrote; `--only=code` or `--only=docs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { linesOf, slugOf } from './markdown.js';

const SECTION_MAP = JSON.parse(readFileSync(new URL('./section-map.json', import.meta.url), 'utf8'));

/** Cited names that were never headings, and where they are now. */
const ALIASES = {
  flywheel: 'docs/explanation/clock-sync.md#the-flywheel',
  'viewer frames': 'docs/reference/edge-settings.md#other-limits',
  'interoperability suite': 'docs/reference/test-suites.md#interop-suite',
  'the state': 'docs/reference/audience-protocol.md#endpoints',
  segment: 'docs/reference/audience-protocol.md#endpoints',
  console: 'docs/how-to/desktop-app.md#using-the-console',
  "the console's score card": 'docs/how-to/desktop-app.md#using-the-console',
  'edge mirror': 'docs/reference/publisher-protocol.md',
  'view.color': 'docs/reference/score-format.md#view--text-instruction-color-image-data-',
  'core/score': 'docs/explanation/architecture.md#the-tree',
  'osc timing under load': 'docs/results.md#osc-timing-under-load-benchosc',
};
/** A heading in lower case without code marks, as citations wrote it. */
const plain = (heading) => heading.toLowerCase().replace(/`/g, '');

/** File extensions whose comments may cite docs. */
export const CODE_FILES = ['*.js', '*.mjs', '*.cjs', '*.ts', '*.jsonc', '*.yml', '*.yaml', '*.html', '*.css', '*.sh', '*.service', '*.env'];

// A Markdown file of the old layout, then optionally its section: "…", “…”, *…*, `…` (each may
// run onto the next comment line), or a bare phrase closed by a parenthesis.
const BREAK = String.raw`\r?\n[ \t]*(?:\/\/|\*|#)[ \t]*`;
const quoted = (open, close) => String.raw`${open}[^${close}\n]{1,80}(?:${BREAK}[^${close}\n]{1,80})?${open === '\\*' ? '\\*' : close}`;
const CITATION = new RegExp(
  String.raw`(?<![\w/.-])(?<file>(?:[\w-]+\/)*(?:README|SECURITY|ARCHITECTURE)\.md|README(?= ?[("]))(?:'s)?` +
    String.raw`(?:(?<sep>[,:]?[ \t]*(?<open>\()?(?:${BREAK})?)` +
    String.raw`(?:(?<q>${quoted('"', '"')}|${quoted('“', '”')}|${quoted('\\*', '*')}|${quoted('`', '`')})(?:,? ?\*\*(?<bold>[^*\n]{2,60})\*\*)?(?<close>\))?` +
    String.raw`|(?<phrase>[^"“*\x60\n)(;]{2,40})(?=\))))?`,
  'g',
);

/**
 * The old file a citation names, as a key of section-map.json (null: not a doc of this repo).
 * @param {string} cited e.g. `README`, `edge-worker/README.md`, `ARCHITECTURE.md`
 * @returns {string | null}
 */
function oldFile(cited) {
  const path = cited.endsWith('.md') ? cited : `${cited}.md`;
  if (SECTION_MAP[path]) return path;
  if (path === 'ARCHITECTURE.md') return 'docs/ARCHITECTURE.md';
  const tail = Object.keys(SECTION_MAP).find((key) => key.endsWith(`/${path}`) && path.includes('/'));
  return tail ?? null;
}

/** @type {{ page: string, anchor: string, text: string }[] | null} */
let sectionsCache = null;
/** The sections of every page the old files moved to, for finding a term that is no heading. */
function newSections(root) {
  if (sectionsCache) return sectionsCache;
  const pages = [...new Set(Object.values(SECTION_MAP).flatMap((m) => Object.values(m).map((t) => t.split('#')[0])))];
  sectionsCache = pages.flatMap((page) => {
    const out = [];
    const seen = new Map();
    for (const { line, fenced } of linesOf(readFileSync(`${root}${page}`, 'utf8'))) {
      const m = !fenced && /^#{1,6} (.+)$/.exec(line);
      if (m) {
        const base = slugOf(m[1]);
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        out.push({ page, anchor: n ? `${base}-${n}` : base, text: m[1] });
      } else if (out.length) out.at(-1).text += `\n${line}`;
    }
    return out;
  });
  return sectionsCache;
}

/**
 * Where a cited section of an old file is now: page#anchor, or the page alone.
 * @param {string} root repository root (with a trailing slash)
 * @param {string} file a key of section-map.json
 * @param {string | undefined} title the cited section, quotes removed
 * @param {string | undefined} bold a bold lead-in named after it (`"Design", **Root**`)
 * @returns {{ target: string, how: 'heading' | 'text' | 'page' }}
 */
export function resolveCitation(root, file, title, bold) {
  const map = SECTION_MAP[file];
  if (!title) return { target: map[''], how: 'page' };
  const t = title.toLowerCase().replace(/`/g, '');
  if (ALIASES[t]) return { target: ALIASES[t], how: 'heading' };
  const heading = headingIn(map, t) ?? null;
  if (heading && bold) {
    const sub = Object.keys(map).find((k) => k.toLowerCase().startsWith(`${heading.toLowerCase()}|${bold.toLowerCase()}`));
    if (sub) return { target: map[sub], how: 'heading' };
  }
  if (heading) return { target: map[heading], how: 'heading' };
  // A heading of another old file (README.md cited for what edge-worker/README.md held), or a bold lead-in.
  for (const other of Object.values(SECTION_MAP)) {
    const h = headingIn(other, t);
    if (h) return { target: other[h], how: 'heading' };
  }
  const lead = Object.keys(map).find((k) => k.includes('|') && k.split('|')[1].toLowerCase().startsWith(t));
  if (lead) return { target: map[lead], how: 'heading' };
  // A term rather than a heading: the section of the file's new pages that mentions it most
  // (headings first), leaving out the pages that mention everything (results, test suites).
  const own = new Set(Object.values(map).map((v) => v.split('#')[0]));
  const sections = newSections(root).filter((s) => !/results\.md|test-suites\.md|benchmarks\.md|docs\/README\.md/.test(s.page));
  const score = (s) => {
    const text = s.text.toLowerCase();
    const lead = text.includes(`- ${t}`) || text.includes(`**${t}`) ? 100 : 0;
    return (text.split('\n')[0].includes(t) ? 1000 : 0) + lead + text.split(t).length - 1;
  };
  const best = (list) => list.reduce((a, b) => (score(b) > score(a) ? b : a), list[0]);
  const ownBest = best(sections.filter((s) => own.has(s.page)));
  const found = ownBest && score(ownBest) > 0 ? ownBest : best(sections);
  if (found && score(found) > 0) return { target: `${found.page}#${found.anchor}`, how: 'text' };
  return { target: map[''], how: 'page' };
}

/**
 * The old heading of one file a cited title names: exact, then either a prefix of the other, then contained.
 * @param {Record<string, string>} map
 * @param {string} t the title, lower case
 * @returns {string | undefined}
 */
function headingIn(map, t) {
  const keys = Object.keys(map).filter((k) => k && !k.includes('|'));
  return (
    keys.find((k) => plain(k) === t) ??
    keys.find((k) => plain(k).startsWith(t) || t.startsWith(plain(k))) ??
    keys.find((k) => plain(k).includes(t))
  );
}

/** Whether position `at` of a text lies in a comment (line comment, block comment line, # or <!--). */
function inComment(text, at) {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const before = text.slice(start, at);
  return /^\s*(\/\/|\/?\*|#|<!--)/.test(before) || /\/\/|\/\*|<!--/.test(before.replace(/'[^']*'|"[^"]*"|`[^`]*`/g, ''));
}

/**
 * The old-style doc citations in one file's comments, each with where it now points.
 * @param {string} root repository root (with a trailing slash)
 * @param {string} text the file's text
 * @param {string | null} [page] a Markdown page's path: its prose (not its code) is read, and a citation becomes a link
 * @returns {{ at: number, end: number, match: string, file: string, title?: string, target: string, how: string, replacement: string }[]}
 */
export function findCitations(root, text, page = null) {
  const found = [];
  const fenced = page
    ? new Set(
        linesOf(text)
          .filter((l) => l.fenced)
          .map((l) => l.n),
      )
    : new Set();
  for (const m of text.matchAll(CITATION)) {
    const g = /** @type {Record<string, string | undefined>} */ (m.groups);
    const file = oldFile(/** @type {string} */ (g.file));
    if (!file || (page ? fenced.has(text.slice(0, m.index).split('\n').length) : !inComment(text, /** @type {number} */ (m.index))))
      continue;
    // In Markdown, a file name in code or in a link already written is left alone.
    const lineStart = text.lastIndexOf('\n', m.index - 1) + 1;
    if (
      page &&
      (text.slice(lineStart, m.index).split('`').length % 2 === 0 ||
        text[m.index - 1] === '[' ||
        (text[m.index - 1] === '(' && text[m.index - 2] === ']') ||
        text.slice(m.index - 3, m.index) === '../')
    )
      continue;
    if (g.phrase?.includes('.md')) g.phrase = undefined;
    const title = g.q?.slice(1, -1).replace(new RegExp(BREAK), ' ').trim() ?? g.phrase?.trim();
    let { target, how } = resolveCitation(root, file, title, g.bold);
    let match = m[0];
    // A bare phrase is taken only when it names a place; otherwise the file alone is cited.
    if (g.phrase && how === 'page') {
      match = m[0].slice(0, m[0].length - g.phrase.length - (g.sep?.length ?? 0));
      ({ target, how } = resolveCitation(root, file, undefined, undefined));
    }
    // A quotation that names no section stays as written after the page.
    if (g.q && how === 'page') g.q = g.close = g.open = undefined;
    if (!g.q && !g.phrase) match = /** @type {string} */ (g.file) + (m[0].slice(g.file.length).startsWith("'s") ? "'s" : '');
    // Keep every line break where it was (with its comment marks), so no line moves; a parenthesis
    // opened before the title and not closed after it stays.
    const breaks = [...match.matchAll(new RegExp(BREAK, 'g'))].map((b) => b[0]);
    const keepOpen = g.open && !g.close && (g.q || (g.phrase && how !== 'page')) ? ' (' : '';
    const keepClose = g.close && !g.open ? ')' : '';
    const possessive = match === `${g.file}'s` ? "'s" : '';
    let end = /** @type {number} */ (m.index) + match.length;
    let replacement = target + possessive + keepClose + keepOpen + breaks.join('');
    // Drop the separator the title left behind at the start of what follows (", `GET /ws`" → "`GET /ws`").
    if ((keepOpen || breaks.length) && /^[,;] /.test(text.slice(end))) end += 2;
    else if (breaks.length && text[end] === ' ') end += 1;
    if (breaks.length && keepOpen) replacement = target + breaks.join('') + '(';
    if (page) {
      if (how === 'page') continue;
      const [path, anchor] = target.split('#');
      const rel = posix.relative(posix.dirname(page), path) || posix.basename(path);
      const label = g.q?.startsWith('`') ? g.q : /** @type {string} */ (title);
      replacement = `[${label}](${rel}${anchor ? `#${anchor}` : ''})${keepClose}${keepOpen}`;
      if (breaks.length) continue;
    }
    found.push({ at: /** @type {number} */ (m.index), end, match: text.slice(m.index, end), file, title, target, how, replacement });
  }
  return found;
}

/**
 * The text with every old-style citation replaced.
 * @param {string} root
 * @param {string} text
 * @param {string | null} [page] a Markdown page's path (citations become links)
 * @returns {string}
 */
export function rewriteCitations(root, text, page = null) {
  let out = '';
  let from = 0;
  for (const c of findCitations(root, text, page)) {
    out += text.slice(from, c.at) + c.replacement;
    from = c.end;
  }
  return out + text.slice(from);
}

/**
 * The tracked code files that may cite docs.
 * @param {string} root
 * @returns {string[]}
 */
export function codeFiles(root) {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...CODE_FILES], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(
      (p) =>
        p &&
        !p.startsWith('node_modules/') &&
        !p.startsWith('test/fixtures/') &&
        !p.startsWith('tools/docs/') &&
        !p.startsWith('test/docs/'),
    );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const write = process.argv.includes('--write');
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
  let count = 0;
  for (const path of only === 'docs' ? [] : codeFiles(root)) {
    const text = readFileSync(root + path, 'utf8');
    const found = findCitations(root, text);
    if (!found.length) continue;
    count += found.length;
    for (const c of found) console.log(`${path}: ${c.match.replace(/\s+/g, ' ')} → ${c.target} (${c.how})`);
    if (write) writeFileSync(root + path, rewriteCitations(root, text));
  }
  // The pages the split moved text into still cite by title in their prose: make those links.
  const pages = new Set(Object.values(SECTION_MAP).flatMap((m) => Object.values(m).map((t) => t.split('#')[0])));
  for (const page of only === 'code' ? [] : [...pages].filter((p) => p !== 'docs/README.md')) {
    const text = readFileSync(root + page, 'utf8');
    const found = findCitations(root, text, page);
    count += found.length;
    for (const c of found) console.log(`${page}: ${c.match.replace(/\s+/g, ' ')} → ${c.replacement} (${c.how})`);
    if (write && found.length) writeFileSync(root + page, rewriteCitations(root, text, page));
  }
  console.log(`${count} citations${write ? ' rewritten' : ''}`);
}
