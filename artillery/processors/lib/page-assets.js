// What a phone's browser fetches after index.html: the stylesheets, scripts and icons the page
// names (the build gives them content-hashed names), on the same origin as the page.

const TAG = /<(link|script|img)\b([^>]*)>/gi;
const ATTR = /([a-zA-Z-]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))/g;
const LINK_RELS = new Set(['stylesheet', 'modulepreload', 'preload', 'icon', 'manifest', 'apple-touch-icon']);

/**
 * @param {string} html
 * @param {string} pageUrl absolute URL of the page (relative references resolve against it)
 * @returns {string[]} absolute, same-origin URLs, in document order, without duplicates
 */
export function pageAssetUrls(html, pageUrl) {
  const base = new URL(pageUrl);
  const baseHref = /<base\b[^>]*\bhref\s*=\s*["']([^"']+)["']/i.exec(html)?.[1];
  const resolveFrom = baseHref ? new URL(baseHref, base) : base;
  const urls = [];
  for (const [, tag, attrText] of html.matchAll(TAG)) {
    const attrs = {};
    for (const m of attrText.matchAll(ATTR)) attrs[m[1].toLowerCase()] = m[3] ?? m[4] ?? m[5];
    let ref = null;
    const name = tag.toLowerCase();
    if (name === 'link') {
      const rels = String(attrs.rel ?? '')
        .toLowerCase()
        .split(/\s+/);
      if (rels.some((r) => LINK_RELS.has(r))) ref = attrs.href;
    } else {
      ref = attrs.src;
    }
    if (!ref || /^(data|blob|javascript):/i.test(ref)) continue;
    let url;
    try {
      url = new URL(ref, resolveFrom);
    } catch {
      continue;
    }
    if (url.origin !== base.origin) continue;
    url.hash = '';
    if (!urls.includes(url.href)) urls.push(url.href);
  }
  return urls;
}
