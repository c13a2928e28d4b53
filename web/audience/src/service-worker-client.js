// Registers the service worker (sw.js, scope = this page's folder) without delaying the first
// paint, and asks it to keep the score's audio once the viewer has joined.

export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  const go = () => navigator.serviceWorker.register('sw.js', { scope: './' }).catch(() => {});
  if (document.readyState === 'complete') go();
  else addEventListener('load', go, { once: true });
}

/** @param {string[]} urls relative media URLs to keep offline */
export function cacheMedia(urls) {
  if (!urls.length || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.ready.then((reg) => reg.active?.postMessage({ type: 'cache-media', urls })).catch(() => {});
}
