// The read-only window the browser tests (and anyone debugging on a device) use to look into a
// page that follows the stream: the audience page's `window.__tutti`, the part page's `window.__part`.

/**
 * What every stream-following page exposes: its state, the lean state, the epoch, the clock and the connection.
 * @param {{ tracker: any, flywheel: any, clock: any, connection: any }} parts
 */
export function streamInspector({ tracker, flywheel, clock, connection }) {
  return {
    state: () => tracker.state(),
    lean: () => flywheel.state(),
    seq: () => tracker.seq(),
    epoch: () => tracker.epoch(),
    counts: () => tracker.counts(),
    clock: () => (clock.estimate() ? { ...clock.estimate(), total: clock.count() } : null),
    toServer: (local) => clock.toServer(local),
    connection: () => connection.status(),
    log: () => connection.log(),
  };
}
