// The console's latency probe (console/latency-probe.js) is a WebSocket viewer inside the
// server; it must not count as one (docs/reference/cli.md#tutti-serve-flags). It proves what it is with a
// secret made at start and known only to this process, from this machine (127.0.0.1 or ::1, the
// same two addresses the per-address limits exempt).

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { PROBE_HEADER } from '../console/latency-probe.js';
import { isExemptAddress } from './exempt-address.js';

/**
 * A new probe secret and the check the audience listener applies to a request.
 * @returns {{ key: string, isProbe: (request: { ip: string, headers: Record<string, unknown> }) => boolean }}
 */
export function createProbeKey() {
  const key = randomBytes(18).toString('base64url');
  const expected = Buffer.from(key);
  return {
    key,
    isProbe(request) {
      const given = request.headers[PROBE_HEADER];
      if (typeof given !== 'string' || !isExemptAddress(request.ip)) return false;
      const bytes = Buffer.from(given);
      return bytes.length === expected.length && timingSafeEqual(bytes, expected);
    },
  };
}
