// What the accessibility suite watches inside a page (docs/reference/accessibility-and-languages.md#accessibility),
// installed before the page's own scripts run (context.addInitScript):
// - window.__live: every change of a live region's words (aria-live polite/assertive, or role
//   status/alert/log), i.e. what a screen reader would speak by itself, with its time;
// - window.__flashes: each beat flash of the part page (.now gaining "flash"/"flash-down") and each
//   pulse animation of the audience page's bar:beat counter, with its time;
// - window.__vibrations: each navigator.vibrate call (a spy: the real one is not called), with the
//   beat on screen at that moment.

export function installProbes() {
  const now = () => performance.timeOrigin + performance.now();
  const w = /** @type {any} */ (window);
  w.__live = [];
  w.__flashes = [];
  w.__vibrations = [];
  const liveRegion = (el) => {
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const live = n.getAttribute('aria-live');
      if (live === 'off') return null;
      if (live === 'polite' || live === 'assertive') return n;
      if (['status', 'alert', 'log'].includes(n.getAttribute('role'))) return n;
    }
    return null;
  };
  const flashing = new WeakMap();
  new MutationObserver((records) => {
    const regions = new Set();
    const said = [];
    for (const r of records) {
      const target = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      if (!target) continue;
      if (r.type === 'attributes') {
        const on = /\bflash(-down)?\b/.test(target.className);
        if (on && !flashing.get(target)) w.__flashes.push({ at: now(), what: 'flash', beat: document.getElementById('beat')?.textContent });
        flashing.set(target, on);
        continue;
      }
      const region = liveRegion(target);
      if (!region) continue;
      // What is added to a live region is spoken; a changed text node speaks its region's words.
      if (r.type === 'childList') for (const node of r.addedNodes) said.push([region, node.textContent]);
      else if (!regions.has(region)) {
        regions.add(region);
        said.push([region, region.textContent]);
      }
    }
    for (const [region, words] of said) {
      const text = (words ?? '').trim();
      if (text)
        w.__live.push({
          at: now(),
          id: region.id,
          text,
          beat: `${document.getElementById('bar')?.textContent}:${document.getElementById('beat')?.textContent}`,
        });
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['class'] });
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    if (this.id === 'counter') w.__flashes.push({ at: now(), what: 'pulse', beat: document.getElementById('beat')?.textContent });
    return animate.apply(this, args);
  };
  Object.defineProperty(navigator, 'vibrate', {
    configurable: true,
    value: (pattern) => {
      w.__vibrations.push({ at: now(), pattern, beat: document.getElementById('beat')?.textContent });
      return true;
    },
  });
}

/**
 * The most flashes that fall within any one second.
 * @param {Array<{ at: number }>} flashes
 */
export function mostInOneSecond(flashes) {
  const at = flashes.map((f) => f.at).sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < at.length; i += 1) {
    while (at[i] - at[j] >= 1000) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
