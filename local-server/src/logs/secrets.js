// Secrets the server's logs never show (docs/how-to/venue-server-unattended.md#logs): the control token and edge tokens
// given at start, and an edge token the operator types into the console later. One list per log
// destination, applied to every line before it is kept, printed or written, whatever formatted it.
// A secret can reach a line escaped: JSON escapes `"` and `\` (the log file's lines are JSON, and a
// JSON text logged inside one is escaped twice), a URL percent-encodes it. Every such form of each
// secret is hidden (issue 40 item 11).

/** Shorter strings are not hidden: "***" in place of every "a" would make a log unreadable. */
const MIN_SECRET_LENGTH = 4;

/** How deep a secret can be JSON-escaped in one line: a JSON text quoted in a JSON log line. */
const JSON_DEPTH = 3;

/** The text of a string as a JSON string literal's inside. */
const jsonInside = (s) => JSON.stringify(s).slice(1, -1);

/**
 * Every form a secret can take in a log line: as it is, JSON-escaped (once and more), percent-encoded.
 * @param {string} secret
 * @returns {string[]}
 */
export function secretForms(secret) {
  const forms = new Set([secret]);
  for (const start of [secret, encodeURIComponent(secret)]) {
    let form = start;
    forms.add(form);
    for (let i = 0; i < JSON_DEPTH; i += 1) forms.add((form = jsonInside(form)));
  }
  return [...forms];
}

/**
 * @typedef {object} Secrets
 * @property {(secret: unknown) => void} add hide this string from now on (ignored unless a string of 4+ characters)
 * @property {(text: unknown) => string} hide the text with every secret, in every form, replaced by `***`
 */

/**
 * @param {Array<unknown>} [initial] secrets known at start (null/undefined entries are skipped)
 * @returns {Secrets}
 */
export function createSecrets(initial = []) {
  /** @type {string[]} every form of every secret, longest first (a longer form holds no shorter one's rest) */
  let list = [];
  /** @param {unknown} secret */
  const add = (secret) => {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) return;
    list = [...new Set([...list, ...secretForms(secret)])].sort((a, b) => b.length - a.length);
  };
  initial.forEach(add);
  return {
    add,
    hide(text) {
      let out = String(text);
      for (const form of list) if (out.includes(form)) out = out.split(form).join('***');
      return out;
    },
  };
}
