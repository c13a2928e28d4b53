// Reading the ordered tree fast-xml-parser builds with `preserveOrder: true`: every node is
// `{ [tag]: children[], ':@'?: attributes }`, text is `{ '#text': string }`. Order matters in
// MusicXML (a direction sits between the notes it falls between), hence this shape.

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ImportError } from '#core/import/import-error.js';

/** @typedef {Record<string, any>} XmlNode */

/**
 * Parse XML text into an ordered tree; a file that is not well-formed XML is an ImportError
 * naming the line and column.
 * @param {string} text
 * @param {string} what how to name the file in the message
 * @returns {XmlNode[]}
 */
export function parseXml(text, what) {
  // Blank lines before the XML declaration (seen in real files, e.g. libmusicxml's samples): XML
  // forbids them but they hide nothing, so they are dropped, and a later error keeps its line.
  const lead = /^\s+(?=<\?xml[\s?])/.exec(text)?.[0] ?? '';
  text = text.slice(lead.length);
  const checked = XMLValidator.validate(text);
  if (checked !== true) {
    const { line, col, msg } = checked.err;
    const skipped = lead.split('\n').length - 1;
    throw new ImportError(`${what} is not well-formed XML (line ${line + skipped}, column ${col}: ${msg})`);
  }
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    // Numeric character references (&#233; for é) are left undecoded without it.
    htmlEntities: true,
    maxNestedTags: MAX_NESTING,
  });
  try {
    return parser.parse(text);
  } catch (error) {
    // The parser refuses hostile DOCTYPEs and trees with a plain Error; that is the file's
    // fault, so it is an ImportError (400 on the console, one line on the CLI), never a 500.
    throw new ImportError(`${what} cannot be read: ${parserRefusal(error instanceof Error ? error.message : String(error))}`);
  }
}

/** Deepest element nesting read; real MusicXML nests about 8 deep. */
const MAX_NESTING = 100;

/**
 * The parser's refusal as a reason the composer can act on.
 * @param {string} message fast-xml-parser's error message
 * @returns {string}
 */
function parserRefusal(message) {
  if (/External entities/i.test(message)) return 'it declares an external entity (<!ENTITY … SYSTEM/PUBLIC …>), which Tutti never loads';
  if (/Invalid entity name %/.test(message)) return 'it declares a parameter entity (<!ENTITY % …>), which Tutti does not read';
  if (/Maximum nested tags/i.test(message)) return `its elements nest more than ${MAX_NESTING} levels deep`;
  if (/Expanded content length|expansion|Entity count/i.test(message))
    return `its entities expand beyond the parser's limit (${message.replace(/^\[\w+\]\s*/, '')})`;
  return message;
}

/**
 * The tag of a node ('#text' for text).
 * @param {XmlNode} node
 * @returns {string}
 */
export function tagOf(node) {
  for (const key of Object.keys(node)) if (key !== ':@') return key;
  return '';
}

/**
 * The child nodes of a node (empty for text).
 * @param {XmlNode | undefined} node
 * @returns {XmlNode[]}
 */
export function childrenOf(node) {
  if (!node) return [];
  const value = node[tagOf(node)];
  return Array.isArray(value) ? value : [];
}

/**
 * Children with a tag.
 * @param {XmlNode | undefined} node
 * @param {string} tag
 * @returns {XmlNode[]}
 */
export function all(node, tag) {
  return childrenOf(node).filter((c) => tagOf(c) === tag);
}

/**
 * The first child with a tag, following a path of tags (`first(n, 'work', 'work-title')`).
 * @param {XmlNode | undefined} node
 * @param {...string} tags
 * @returns {XmlNode | undefined}
 */
export function first(node, ...tags) {
  let current = node;
  for (const tag of tags) {
    current = childrenOf(current).find((c) => tagOf(c) === tag);
    if (!current) return undefined;
  }
  return current;
}

/**
 * The text inside a node (its text children joined), trimmed; '' when none.
 * @param {XmlNode | undefined} node
 * @returns {string}
 */
export function textOf(node) {
  return childrenOf(node)
    .map((c) => (tagOf(c) === '#text' ? String(c['#text']) : textOf(c)))
    .join('')
    .trim();
}

/**
 * An attribute of a node, or undefined.
 * @param {XmlNode | undefined} node
 * @param {string} name
 * @returns {string | undefined}
 */
export function attr(node, name) {
  const value = node?.[':@']?.[name];
  return value === undefined ? undefined : String(value);
}
