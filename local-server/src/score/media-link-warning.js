// A score's media file that is a link out of the score's folder (docs/explanation/threat-model.md#bad-input-never-crashes-the-server-and-never-reaches-another-client):
// refused by media-file.js wherever it is asked for — the venue's /media/* and the console
// replay's /api/records/<id>/media/* — and, each time, counted as
// tutti_bad_input_total{source="media_link"} and said once per file in the log.

import { BadInput } from '../logs/metrics.js';

/** Files warned about, at most: a folder full of links cannot fill the log. */
const MAX_WARNED = 256;

/**
 * A function to call with each refused link: counted always, said once per file.
 * @param {{ metrics: import('../logs/metrics.js').Metrics, log: { warn: (message: string) => void } }} deps
 * @returns {(src: string) => void}
 */
export function warnMediaLinks({ metrics, log }) {
  const warned = new Set();
  return (src) => {
    metrics.badInput.inc({ source: BadInput.MEDIA_LINK });
    if (warned.has(src) || warned.size > MAX_WARNED) return;
    warned.add(src);
    log.warn(
      `media ${src} links outside the score's folder; not served (docs/explanation/threat-model.md#bad-input-never-crashes-the-server-and-never-reaches-another-client)`,
    );
  };
}
