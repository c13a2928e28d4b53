// The console's imports run one at a time. Each runs on a worker thread (import-worker.js), but
// the machine has few cores and a show playing on them: two large imports at once pushed OSC
// beats 47 ms late (issue 40, item 5). A second import waits its turn instead of running beside
// the first; the answer says how many were ahead of it.

/**
 * @typedef {object} ImportQueue
 * @property {<T>(task: () => Promise<T>) => Promise<{ value: T, ahead: number }>} run
 *   run `task` after every task queued before it has settled; `ahead`: how many were queued or
 *   running when it was asked for
 * @property {() => number} size tasks queued or running
 */

/**
 * A queue that runs one task at a time, in the order asked.
 * @returns {ImportQueue}
 */
export function createImportQueue() {
  /** @type {Promise<unknown>} */
  let tail = Promise.resolve();
  let size = 0;
  return {
    run(task) {
      const ahead = size;
      size += 1;
      const result = tail.then(task).finally(() => {
        size -= 1;
      });
      // The next task waits for this one whether it succeeds or fails.
      tail = result.catch(() => {});
      return result.then((value) => ({ value, ahead }));
    },
    size: () => size,
  };
}
