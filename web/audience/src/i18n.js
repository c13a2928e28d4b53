// The page's own words in the phone's language (docs/reference/accessibility-and-languages.md#languages): English,
// German, French, Spanish and Italian, chosen from navigator.languages, English when none of them
// is listed. Only the words of the audience page and the part page live here; the composer's
// texts (title, sections, view texts, vote questions and options, cue texts) are shown as written.
// Static HTML words carry `data-i18n` (text) or `data-i18n-label` (aria-label) with a key.

import { ordinal } from '#core/score/printed-bars.js';
import en from './strings/en.js';
import de from './strings/de.js';
import fr from './strings/fr.js';
import es from './strings/es.js';
import it from './strings/it.js';

/** @type {Record<string, Record<string, string>>} */
export const TABLES = { en, de, fr, es, it };
export const FALLBACK = 'en';

/**
 * The first of the phone's languages that has a table (by primary subtag: de-AT → de), else English.
 * @param {readonly string[] | undefined} languages navigator.languages, most preferred first
 * @returns {string}
 */
export function pickLanguage(languages) {
  for (const tag of languages ?? []) {
    const primary = String(tag).toLowerCase().split(/[-_]/)[0];
    if (Object.hasOwn(TABLES, primary)) return primary;
  }
  return FALLBACK;
}

const browserLanguages = () =>
  typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];

let lang = pickLanguage(browserLanguages());

/** The language the page speaks now. */
export const language = () => lang;

/**
 * Choose the language explicitly (tests, or a page that wants to follow a setting).
 * @param {string} tag
 */
export function setLanguage(tag) {
  lang = pickLanguage([tag]);
}

/**
 * A string of the page in its language, `{name}` filled from `vars`. A key ending in `.one` /
 * `.other` is picked with `vars.n` by the language's plural rules when `key` names the pair.
 * A key missing in a table falls back to English, then to the key itself (never blank).
 * @param {string} key
 * @param {Record<string, string | number>} [vars]
 * @returns {string}
 */
export function t(key, vars = {}) {
  const table = TABLES[lang];
  let full = key;
  if (!Object.hasOwn(table, key) && !Object.hasOwn(en, key) && typeof vars.n === 'number') {
    full = `${key}.${new Intl.PluralRules(lang).select(vars.n) === 'one' ? 'one' : 'other'}`;
  }
  const template = table[full] ?? en[full] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(vars, name) ? String(vars[name]) : whole));
}

/** How each language writes "the 2nd" time through (a printed bar's pass). */
const ORDINALS = {
  en: (n) => ordinal(n),
  de: (n) => `${n}.`,
  fr: (n) => (n === 1 ? '1re' : `${n}e`),
  es: (n) => `${n}.ª`,
  it: (n) => `${n}ª`,
};

/**
 * A pass number as the page's language writes it ("2nd", "2.", "2e", "2.ª", "2ª").
 * @param {number} n
 */
export function nth(n) {
  return (ORDINALS[lang] ?? ORDINALS.en)(n);
}

/**
 * Write the page's static words in its language: `lang` on <html>, then every `data-i18n`
 * (textContent) and `data-i18n-label` (aria-label) element under `root`.
 * @param {ParentNode} [root]
 */
export function localizePage(root = document) {
  document.documentElement.lang = lang;
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(/** @type {HTMLElement} */ (node).dataset.i18n ?? '');
  for (const node of root.querySelectorAll('[data-i18n-label]'))
    node.setAttribute('aria-label', t(/** @type {HTMLElement} */ (node).dataset.i18nLabel ?? ''));
}
