// The audience page's Content-Security-Policy (docs/explanation/threat-model.md#bad-input-never-crashes-the-server-and-never-reaches-another-client). The page is
// plain same-origin code: its own JS and CSS, images and audio from /media/ on its own origin,
// WebSocket/SSE/poll/time to its own origin and a service worker. Anything else (an inline
// script, a foreign image, a connection to another host) is refused by the browser, so even a
// file that slipped into the origin cannot reach out. One definition: the build puts it in a
// <meta> tag (so the edge, which serves the built page as static assets, sends it too) and the
// venue server also sends it as a header with the directives a <meta> cannot carry.

/**
 * The policy in the page's <meta http-equiv="Content-Security-Policy">. `connect-src 'self'`
 * covers ws:/wss: to the same host in current browsers; where a browser does not, the page falls
 * back to SSE, which is same-origin HTTP.
 */
export const AUDIENCE_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The header form: a <meta> policy cannot forbid framing, a header can (clickjacking). */
export const AUDIENCE_PAGE_CSP_HEADER = `${AUDIENCE_PAGE_CSP}; frame-ancestors 'none'`;
