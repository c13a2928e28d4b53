// The control token arrives in the page's address (`/?token=…`). It is moved to sessionStorage
// at once and removed from the address bar, so it does not linger in history, screenshots or
// a copied link; a reload in the same tab still works.

const KEY = 'tutti.control-token';

/** The token for this tab, or null when the console was opened without one. */
export function takeToken() {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', `${url.pathname}${url.search}${url.hash}`);
    return fromUrl;
  }
  return sessionStorage.getItem(KEY);
}

/** @param {string} token */
export function keepToken(token) {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken() {
  sessionStorage.removeItem(KEY);
}
