// Back from sleep, background, a frozen tab or offline (the audience page and the part page):
// tell the connection, which distrusts its clock and copy and gets fresh ones now
// (connection.js `resume`).

/**
 * @param {{ resume: (why: string) => void }} connection
 */
export function resumeOnWake(connection) {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') connection.resume('visible');
  });
  // A frozen page (Page Lifecycle: phone asleep, tab discarded-to-be) gets `resume`, not visibilitychange.
  document.addEventListener('resume', () => connection.resume('unfrozen'));
  addEventListener('pageshow', (e) => e.persisted && connection.resume('restored'));
  addEventListener('online', () => connection.resume('online'));
}
