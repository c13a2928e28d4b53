// The vote a phone sends (docs/reference/audience-protocol.md#audience-voices): on the open WebSocket as
// {"type":"vote","key":K,"option":O,"device":D}, or as the body of POST /vote. Everything in it
// is hostile input: the shapes are bounded here, once, for the venue and the edge alike.

/**
 * A phone's random id, kept by the page (local storage): 16 to 64 of A-Z a-z 0-9 - _.
 * It is what "one vote per phone" counts by (docs/explanation/threat-model.md#audience-votes).
 */
export const DEVICE_ID = /^[A-Za-z0-9_-]{16,64}$/;
/** One opening of a prompt: `<prompt id>~<opening time in base 36>` (core/votes/prompt-plan.js). */
export const ROUND_KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}~[0-9a-z]{1,12}$/;
/** An option id, as in the score (core/score/validate-prompts.js). */
export const OPTION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

/**
 * @typedef {{ key: string, option: string, device: string }} Vote
 * @typedef {{ ok: true, vote: Vote } | { ok: false, reason: string }} ParsedVote
 */

/**
 * Check the fields of a vote (an already-parsed JSON object); the `type` member, when present,
 * is the caller's business. Never throws.
 * @param {any} value
 * @returns {ParsedVote}
 */
export function parseVote(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'a vote is a JSON object' };
  const { key, option, device } = value;
  if (typeof key !== 'string' || !ROUND_KEY.test(key)) return { ok: false, reason: "vote key must be the open prompt's key" };
  if (typeof option !== 'string' || !OPTION_ID.test(option)) return { ok: false, reason: 'vote option must be an option id' };
  if (typeof device !== 'string' || !DEVICE_ID.test(device)) return { ok: false, reason: 'vote device must be 16-64 of A-Z a-z 0-9 - _' };
  for (const name of Object.keys(value)) {
    if (name !== 'type' && name !== 'key' && name !== 'option' && name !== 'device')
      return { ok: false, reason: `unknown vote field ${name.slice(0, 32)}` };
  }
  return { ok: true, vote: { key, option, device } };
}

/**
 * The answer to a vote on a WebSocket (not part of the state stream: no seq).
 * @param {string} key
 * @param {string | null} refused why the vote was not counted (closed, unknown_option, full, rate), or null when counted
 * @returns {string}
 */
export function encodeVoteReply(key, refused) {
  return refused === null
    ? `{"type":"voted","key":${JSON.stringify(key)},"ok":true}`
    : `{"type":"voted","key":${JSON.stringify(key)},"ok":false,"reason":"${refused}"}`;
}
