// The console's OSC card (docs/how-to/connect-osc-tools.md#on-time-in-every-receiver): the targets with their
// mode, offset, counters and last test ping; add, change, remove and ping a target. Changes go to
// the host (the desktop app saves them).

import { OSC_MODES, MAX_OFFSET_MS, formatTarget } from '../osc/osc-target.js';
import { sendError } from '../routes/send-error.js';

const PING_TIMEOUT_MS = 3000;

const hostPattern = '^[^\\s/\\\\?#@]+$';
const oscTargetBody = {
  type: 'object',
  required: ['host', 'port'],
  additionalProperties: false,
  properties: {
    host: { type: 'string', minLength: 1, maxLength: 253, pattern: hostPattern },
    port: { type: 'integer', minimum: 1, maximum: 65535 },
  },
};
/** A target with its delivery settings (osc-target.js): adding one, or changing one. */
const oscTargetSettingsBody = {
  ...oscTargetBody,
  properties: {
    ...oscTargetBody.properties,
    mode: { type: 'string', enum: [...OSC_MODES] },
    offsetMs: { type: 'number', minimum: -MAX_OFFSET_MS, maximum: MAX_OFFSET_MS },
  },
};

const targetKey = (t) => `${t.host}:${t.port}`;
const described = (t) => `${formatTarget(t)} (${t.mode}, offset ${t.offsetMs} ms)`;

/**
 * @param {object} options
 * @param {any} options.osc the one OSC sender (osc.js)
 * @param {() => any} options.status the server's status (its `osc.in`)
 * @param {{ info: (msg: string) => void }} options.log
 * @param {(change: Record<string, unknown>) => void} options.tell what the host should save
 */
export function createOscPanel({ osc, status, log, tell }) {
  /** @type {Map<string, { ok: boolean, at: number, rttMs: number | null, error: string | null }>} */
  const pings = new Map();
  const current = () => ({
    targets: osc.list().map((t) => ({ ...t, lastPing: pings.get(targetKey(t)) ?? null })),
    in: status().osc?.in ?? null,
  });
  /** What the host saves (the desktop app's settings): each target, with its mode and offset when not the defaults. */
  const savedTargets = () =>
    osc.list().map((t) => ({
      host: t.host,
      port: t.port,
      ...(t.mode !== 'plain' && { mode: t.mode }),
      ...(t.offsetMs !== 0 && { offsetMs: t.offsetMs }),
    }));

  /** @param {any} target */
  async function ping(target) {
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve('timeout'), PING_TIMEOUT_MS);
    });
    const outcome = await Promise.race([osc.ping(target).catch(() => ({ sent: false, rttMs: null })), timeout]);
    clearTimeout(timer);
    const ok = outcome !== 'timeout' && outcome.sent;
    const result = {
      ok,
      at: Date.now(),
      rttMs: outcome !== 'timeout' ? outcome.rttMs : null,
      error: ok
        ? null
        : outcome === 'timeout'
          ? 'no answer from the network stack within 3 s (name lookup?)'
          : `could not send to ${target.host}:${target.port}`,
    };
    pings.set(targetKey(target), result);
    return { target, ...result };
  }

  return {
    /** The card's content: targets (with their last ping) and the OSC-in port. */
    status: current,
    /** @param {import('fastify').FastifyInstance} app */
    routes(app) {
      app.post('/api/osc/targets', { schema: { body: oscTargetSettingsBody } }, async (request) => {
        const { host: address, port, mode = 'plain', offsetMs = 0 } = /** @type {any} */ (request.body);
        osc.add({ host: address, port, mode, offsetMs });
        log.info(`OSC target added: ${described({ host: address, port, mode, offsetMs })}`);
        tell({ oscTargets: savedTargets() });
        return current();
      });

      // The console's mode and offset fields: change a target in place (its counters stay).
      app.patch('/api/osc/targets', { schema: { body: oscTargetSettingsBody } }, async (request, reply) => {
        const { host: address, port, mode, offsetMs } = /** @type {any} */ (request.body);
        const changed = osc.update({ host: address, port }, { mode, offsetMs });
        if (!changed)
          return sendError(reply, 'NO_SUCH_TARGET', { message: `${formatTarget({ host: address, port })} is not an OSC target` });
        log.info(`OSC target changed: ${described(changed)}`);
        tell({ oscTargets: savedTargets() });
        return current();
      });

      app.delete('/api/osc/targets', { schema: { body: oscTargetBody } }, async (request, reply) => {
        const { host: address, port } = /** @type {any} */ (request.body);
        if (!osc.remove({ host: address, port }))
          return sendError(reply, 'NO_SUCH_TARGET', { message: `${address}:${port} is not an OSC target` });
        pings.delete(targetKey({ host: address, port }));
        log.info(`OSC target removed: ${address}:${port}`);
        tell({ oscTargets: savedTargets() });
        return current();
      });

      app.post('/api/osc/ping', { schema: { body: oscTargetBody } }, async (request) => ping(/** @type {any} */ (request.body)));
    },
  };
}
