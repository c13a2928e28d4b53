// The audience app for a named show (docs/how-to/deploy-the-edge.md#more-than-one-show-per-edge): the same
// static files as the default show (content-hashed, so one copy serves every show), asked for
// without the `/s/<show>` prefix. The page builds every URL relative to its own folder
// (`document.baseURI`), so served at `/s/<show>/` it talks to that show's /ws, /sse, /media/….

/**
 * @param {Request} request the request with the show's prefix already taken off (show-path.js)
 * @param {Env} env
 * @param {string} base `/s/<show>`
 */
export async function serveShowAsset(request, env, base) {
  const response = await env.ASSETS.fetch(request);
  // The asset server's own redirects (e.g. /index.html → /) point at the root: keep them in the show.
  const location = response.headers.get('location');
  if (response.status >= 300 && response.status < 400 && location?.startsWith('/') && !location.startsWith('//')) {
    const headers = new Headers(response.headers);
    headers.set('location', `${base}${location}`);
    return new Response(response.body, { status: response.status, headers });
  }
  return response;
}
