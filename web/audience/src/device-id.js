// The phone's random device id (docs/reference/audience-protocol.md#audience-voices): what "one vote per phone" counts
// by. Kept in local storage so a reload, a reconnect or a second tab votes as the same phone;
// without storage (private mode, blocked) it lasts as long as the page (docs/explanation/threat-model.md#audience-votes).

const KEY = 'tutti-device';
const VALID = /^[A-Za-z0-9_-]{16,64}$/;

/** 16 random bytes as base64url: 22 characters. */
function fresh() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** @returns {string} */
export function deviceId() {
  try {
    const kept = localStorage.getItem(KEY);
    if (kept && VALID.test(kept)) return kept;
    const id = fresh();
    localStorage.setItem(KEY, id);
    return id;
  } catch {
    return fresh();
  }
}
