// Secrets the server's logs never show (README.md, "Logs"): the control token and edge tokens
// given at start, and an edge token the operator types into the console later. One list per log
// destination, applied to every line before it is kept, printed or written, whatever formatted it.

/** Shorter strings are not hidden: "***" in place of every "a" would make a log unreadable. */
const MIN_SECRET_LENGTH = 4;

/**
 * @typedef {object} Secrets
 * @property {(secret: unknown) => void} add hide this string from now on (ignored unless a string of 4+ characters)
 * @property {(text: unknown) => string} hide the text with every secret replaced by `***`
 */

/**
 * @param {Array<unknown>} [initial] secrets known at start (null/undefined entries are skipped)
 * @returns {Secrets}
 */
export function createSecrets(initial = []) {
  /** @type {string[]} */
  const list = [];
  /** @param {unknown} secret */
  const add = (secret) => {
    if (typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH && !list.includes(secret)) list.push(secret);
  };
  initial.forEach(add);
  return {
    add,
    hide(text) {
      let out = String(text);
      for (const secret of list) out = out.split(secret).join('***');
      return out;
    },
  };
}
