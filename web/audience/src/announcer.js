// What a screen reader says on its own (docs/reference/accessibility-and-languages.md#accessibility): two visually
// hidden live regions that are in the page from the start (#announce, polite; #announce-urgent,
// assertive). Only moments worth interrupting for go here — a new section, a vote opening, closing
// and its result, a venue notice, the connection lost and back, the part's next cue — never the
// beat: the bar:beat display is a role="timer" (not spoken unless the reader goes to it).

/** Below this gap a throttled message waits, and a newer one of the same kind replaces it. */
const DEFAULT_GAP_MS = 2000;
/** How long a spoken message stays in its region (long enough for any reader to pick it up). */
const KEEP_MS = 10_000;

/**
 * @returns {{ say: (text: string, options?: { urgent?: boolean, kind?: string, gapMs?: number }) => void }}
 */
export function createAnnouncer() {
  const polite = /** @type {HTMLElement} */ (document.getElementById('announce'));
  const urgent = /** @type {HTMLElement} */ (document.getElementById('announce-urgent'));
  /** @type {Map<string, { last: number, timer: number, text: string }>} */
  const kinds = new Map();

  // Each message is a node of its own, added to the region (and removed after a while): two
  // messages in the same moment are both spoken (replacing the text would drop the first), and
  // the same words twice are two additions, so both are spoken.
  function write(region, text) {
    const node = document.createElement('p');
    node.textContent = text;
    region.append(node);
    window.setTimeout(() => node.remove(), KEEP_MS);
  }

  return {
    /**
     * Speak `text`. With `kind`, messages of that kind are spoken at most once per `gapMs`; one
     * that comes sooner waits for the gap and a newer one replaces it (the latest wins).
     */
    say(text, { urgent: isUrgent = false, kind, gapMs = DEFAULT_GAP_MS } = {}) {
      if (!text) return;
      const region = isUrgent ? urgent : polite;
      if (!kind) return write(region, text);
      const k = kinds.get(kind) ?? { last: -Infinity, timer: 0, text: '' };
      kinds.set(kind, k);
      k.text = text;
      const wait = k.last + gapMs - performance.now();
      if (wait <= 0) {
        k.last = performance.now();
        write(region, text);
      } else if (!k.timer) {
        k.timer = window.setTimeout(() => {
          k.timer = 0;
          k.last = performance.now();
          write(region, k.text);
        }, wait);
      }
    },
  };
}

let shared;
/** The page's one announcer (both regions are in index.html of both pages). */
export const announcer = () => (shared ??= createAnnouncer());
