// The viewer's session on the edge (docs/explanation/threat-model.md#the-public-edge-cloudflare-worker--durable-objects): the edge refuses a POST vote
// without a session it signed (403 SESSION); the page then joins (`POST session` with its device
// id), keeps the session for the page's life and sends it in `x-tutti-session` (one voice per
// join). The venue server needs none and is never asked for one: the first vote goes without.

/** @type {Map<string, Promise<string | null>>} device → the session (null: none to be had here) */
const sessions = new Map();

/**
 * @param {string} base the page URL (`session` is relative to it)
 * @param {string} device
 * @returns {Promise<string | null>}
 */
export function sessionFor(base, device) {
  let session = sessions.get(device);
  if (!session) {
    session = fetch(new URL('session', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ device }),
    })
      .then((res) => (res.ok ? res.json() : null))
      .then((body) => (typeof body?.session === 'string' ? body.session : null))
      .catch(() => null);
    sessions.set(device, session);
  }
  return session;
}

/**
 * Forget the session (expired, or the edge's key changed) so the next vote joins again.
 * @param {string} device
 */
export function forgetSession(device) {
  sessions.delete(device);
}

/**
 * POST a vote, with the session once there is one; joins (again) once if the edge refuses it.
 * @param {string} base
 * @param {{ key: string, option: string, device: string }} body
 * @returns {Promise<unknown>} the reply's JSON
 */
export async function postVote(base, body) {
  for (let attempt = 0; ; attempt += 1) {
    const session = sessions.has(body.device) ? await sessionFor(base, body.device) : null;
    const res = await fetch(new URL('vote', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(session ? { 'x-tutti-session': session } : {}) },
      body: JSON.stringify(body),
    });
    const reply = await res.json();
    if (res.status !== 403 || reply?.error !== 'SESSION' || attempt > 0) return reply;
    forgetSession(body.device);
    await sessionFor(base, body.device);
  }
}
