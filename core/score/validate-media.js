// Rules about what a score declares for later reference and how it refers to it: parts (OSC
// destinations), assets (media files next to the score), their ids, OSC addresses, and the check
// that a reference names a declared part or asset of the right kind.

import { NOTATION_MEDIA_DIR, isNotationMedia } from './audience-score.js';
import { describeValue, didYouMean, quote } from './format-problems.js';
import { SCORE_LIMITS } from './validate-limits.js';
import { article, chars, checkArray, checkEntry, checkInteger, checkString, has, own, shown } from './validate-primitives.js';

/**
 * @typedef {import('./validate-primitives.js').CheckContext} CheckContext
 * @typedef {import('./validate-limits.js').ScoreEnv} ScoreEnv
 * @typedef {import('./validate-limits.js').Part} Part
 * @typedef {import('./validate-limits.js').Asset} Asset
 */

const REF_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
// OSC 1.0: an address is "/"-separated parts of printable ASCII except space # * , / ? [ ] { }.
const OSC_ADDRESS = /^(?:\/[!"$-)+\-.0->@-Z\\^-z|~]+)+$/;
const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const EXTENSIONS = {
  audio: ['.wav', '.mp3', '.ogg', '.oga', '.opus', '.m4a', '.aac', '.flac', '.webm'],
  image: ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.svg', '.avif'],
};

// The id of a part or asset: present, well-formed and not declared before.
function checkId(ctx, entry, path, seen, what) {
  const id = own(entry, 'id');
  if (id === undefined) {
    ctx.add(`${path}.id`, `missing: give the ${what} an id such as "${what === 'part' ? 'vln' : 'bell'}" for cues to refer to`);
    return false;
  }
  if (typeof id !== 'string' || !REF_ID.test(id)) {
    ctx.add(
      `${path}.id`,
      `${shown(id)} is not a valid ${what} id; use 1 to 64 letters, digits, "-" or "_", starting with a letter or digit`,
    );
    return false;
  }
  if (seen.has(id)) {
    ctx.add(`${path}.id`, `${quote(id)} is already the id of ${seen.get(id).path}; ${what} ids must be unique`);
    return false;
  }
  return true;
}

/**
 * An OSC address (or address prefix), with the reason when it is not one.
 * @param {CheckContext} ctx
 * @param {unknown} value
 * @param {string} path
 * @param {string} what  e.g. 'OSC address'
 * @returns {boolean} whether the value is fine
 */
export function checkOscAddress(ctx, value, path, what) {
  if (typeof value !== 'string') {
    ctx.add(path, `expected ${what} (text starting with "/"), got ${describeValue(value)}`);
    return false;
  }
  if (OSC_ADDRESS.test(value)) return true;
  let reason;
  if (!value.startsWith('/')) reason = 'it must start with "/"';
  else if (value.endsWith('/')) reason = 'it must not end with "/"';
  else if (value.includes('//')) reason = 'it has an empty part ("//")';
  else if (/\s/.test(value)) reason = 'it contains a space';
  else reason = 'OSC addresses use printable ASCII except # * , ? [ ] { }';
  ctx.add(path, `${quote(value)} is not a valid ${what}: ${reason}`);
  return false;
}

/**
 * The parts (optional): unique ids, an optional name and an OSC address prefix each. Registers
 * each valid id in `env.parts` for cues to refer to.
 * @param {CheckContext} ctx
 * @param {any} value the score's `parts`
 * @param {ScoreEnv} env
 * @returns {Part[]}
 */
export function checkParts(ctx, value, env) {
  if (!checkArray(ctx, value, 'parts', SCORE_LIMITS.parts, 'parts such as { "id": "vln", "name": "Violin", "osc": "/vln" }', false))
    return [];
  const out = [];
  value.forEach((entry, i) => {
    const path = `parts[${i}]`;
    if (!checkEntry(ctx, entry, path, 'a part such as { "id": "vln", "name": "Violin", "osc": "/vln" }', ['id', 'name', 'osc'])) return;
    const result = { id: own(entry, 'id') };
    if (checkId(ctx, entry, path, env.parts, 'part')) env.parts.set(result.id, { path });
    if (has(entry, 'name')) {
      checkString(ctx, own(entry, 'name'), `${path}.name`, { min: 1, max: SCORE_LIMITS.titleChars, what: 'the part name', blank: false });
      result.name = own(entry, 'name');
    }
    if (!has(entry, 'osc')) ctx.add(`${path}.osc`, 'missing: the OSC address prefix of this part, such as "/vln"');
    else checkOscAddress(ctx, own(entry, 'osc'), `${path}.osc`, 'OSC address prefix');
    result.osc = own(entry, 'osc');
    out.push(result);
  });
  return out;
}

/**
 * Why a path relative to the score cannot be served safely (or undefined when it can): not a
 * URL, not absolute, no "..", no empty or "." folder, no ? # % or control characters, and for a
 * media `kind` a fitting extension. Shared by assets and the score's `notation`.
 * @param {string} src
 * @param {'audio' | 'image' | undefined} kind
 * @returns {string | undefined}
 */
export function srcProblem(src, kind) {
  if (src === '') return 'it is empty';
  if (URL_SCHEME.test(src)) return 'it must be a file path next to the score, not a URL';
  if (src.startsWith('/')) return 'it must be relative to the score file, not start with "/"';
  if (src.includes('\\')) return 'use "/" between folders, not "\\"';
  const parts = src.split('/');
  if (parts.includes('..')) return 'it must not go up a folder with ".."';
  if (parts.some((p) => p === '' || p === '.')) return 'it has an empty or "." folder name';
  // ? # % would change the media URL the phones fetch; control characters are never intended.
  if (/[?#%]/.test(src) || [...src].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f'))
    return 'it must not contain ?, #, % or control characters';
  const lower = src.toLowerCase();
  const extensions = EXTENSIONS[kind];
  if (extensions && !extensions.some((ext) => lower.endsWith(ext))) return `an ${kind} file should end in ${extensions.join(', ')}`;
  return undefined;
}

/**
 * The assets (optional): unique ids, a kind ("audio" or "image"), a safe relative file path with
 * a fitting extension, and an optional size. Registers each valid id in `env.assets` with its kind.
 * @param {CheckContext} ctx
 * @param {any} value the score's `assets`
 * @param {ScoreEnv} env
 * @returns {Asset[]}
 */
export function checkAssets(ctx, value, env) {
  if (
    !checkArray(
      ctx,
      value,
      'assets',
      SCORE_LIMITS.assets,
      'media files such as { "id": "bell", "kind": "audio", "src": "media/bell.wav" }',
      false,
    )
  )
    return [];
  const out = [];
  value.forEach((entry, i) => {
    const path = `assets[${i}]`;
    if (
      !checkEntry(ctx, entry, path, 'a media file such as { "id": "bell", "kind": "audio", "src": "media/bell.wav" }', [
        'id',
        'kind',
        'src',
        'bytes',
      ])
    )
      return;
    const result = { id: own(entry, 'id'), kind: own(entry, 'kind'), src: own(entry, 'src') };
    const kind = result.kind;
    const kindOk = kind === 'audio' || kind === 'image';
    if (kind === undefined) ctx.add(`${path}.kind`, 'missing: "audio" or "image"');
    else if (!kindOk) ctx.add(`${path}.kind`, `the kind must be "audio" or "image", got ${describeValue(kind)}`);
    // Register even a half-broken asset so that cues referring to it do not add follow-on problems.
    if (checkId(ctx, entry, path, env.assets, 'asset')) env.assets.set(result.id, { path, kind: kindOk ? kind : undefined });
    const src = result.src;
    if (src === undefined) ctx.add(`${path}.src`, 'missing: the file path relative to the score, e.g. "media/bell.wav"');
    else if (typeof src !== 'string')
      ctx.add(`${path}.src`, `expected a file path relative to the score (text), got ${describeValue(src)}`);
    else if (chars(src) > SCORE_LIMITS.srcChars) ctx.add(`${path}.src`, `the path is longer than ${SCORE_LIMITS.srcChars} characters`);
    else {
      // The engraved pages are served as media under notation/ (audience-score.js): an asset there would be hidden by them.
      const reserved = isNotationMedia(src)
        ? `the folder "${NOTATION_MEDIA_DIR}/" is where the audience's engraved pages are served; keep the file in another folder`
        : undefined;
      const problem = srcProblem(src, kindOk ? kind : undefined) ?? reserved;
      if (problem) ctx.add(`${path}.src`, `${quote(src)} is not a usable file path: ${problem}`);
    }
    if (has(entry, 'bytes')) {
      checkInteger(ctx, own(entry, 'bytes'), `${path}.bytes`, 0, Number.MAX_SAFE_INTEGER, 'the file size in bytes');
      result.bytes = own(entry, 'bytes');
    }
    out.push(result);
  });
  return out;
}

/**
 * A reference by id to something declared in `registry` (and, when `kind` is given, of that
 * kind); suggests the closest known id when there is no such one.
 * @param {CheckContext} ctx
 * @param {unknown} value
 * @param {string} path
 * @param {Map<string, { path: string, kind?: string }>} registry  `env.parts` or `env.assets`
 * @param {'audio' | 'image' | undefined} kind
 * @param {string} noun  what is referred to, e.g. 'audio asset'
 * @returns {boolean} whether the reference is fine
 */
export function checkReference(ctx, value, path, registry, kind, noun) {
  if (typeof value !== 'string') {
    ctx.add(path, `expected the id of ${article(noun)} (text), got ${describeValue(value)}`);
    return false;
  }
  const found = registry.get(value);
  if (!found) {
    const known = [...registry.entries()].filter(([, e]) => !kind || e.kind === kind).map(([id]) => id);
    const guess = didYouMean(value, known);
    const hint = guess
      ? `did you mean ${quote(guess)}?`
      : known.length
        ? `known: ${known.slice(0, 10).join(', ')}`
        : 'the score declares none';
    ctx.add(path, `there is no ${noun} with id ${quote(value)} (${hint})`);
    return false;
  }
  if (kind && found.kind && found.kind !== kind) {
    ctx.add(path, `${quote(value)} is ${article(`${found.kind} asset`)} (${found.path}), not ${article(noun)}`);
    return false;
  }
  return true;
}
