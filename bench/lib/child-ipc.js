// The worker side of children.js: answer the runner's commands and exit when the runner goes
// away (IPC channel closed), so a killed runner never leaves workers behind.

/**
 * Serve commands from the parent: each handler's return value (or promise) is the reply.
 * @param {Record<string, (payload: any) => any>} handlers
 * @param {{ onExit?: () => void | Promise<void> }} [options] cleanup before exiting on SIGTERM
 */
export function serveParent(handlers, { onExit } = {}) {
  if (!process.send) throw new Error('this module is a benchmark worker: start it with child_process.fork');
  let exiting = false;
  const exit = async (code) => {
    if (exiting) return;
    exiting = true;
    // Never let a slow cleanup keep a worker alive.
    setTimeout(() => process.exit(code), 2000).unref();
    try {
      await onExit?.();
    } finally {
      process.exit(code);
    }
  };
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => exit(0));
  process.on('SIGINT', () => {}); // Ctrl-C reaches the whole group; the runner decides
  process.on('message', async (/** @type {any} */ msg) => {
    if (!msg || typeof msg.cmd !== 'string' || msg.id === undefined) return;
    const handler = handlers[msg.cmd];
    try {
      if (!handler) throw new Error(`unknown command "${msg.cmd}"`);
      const result = await handler(msg.payload);
      sendSafe({ reply: msg.id, ok: true, result });
    } catch (error) {
      sendSafe({ reply: msg.id, ok: false, error: error?.message ?? String(error) });
    }
  });
}

/**
 * Send an unsolicited message to the parent (e.g. `ready`).
 * @param {string} type
 * @param {any} data
 */
export function tellParent(type, data) {
  sendSafe({ type, data });
}

function sendSafe(message) {
  if (process.connected) process.send?.(message, () => {});
}
