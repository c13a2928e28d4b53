// The address phones on the venue Wi-Fi should open: a private IPv4 address of this machine,
// preferring the ranges home/venue routers hand out.

import os from 'node:os';

const preference = [/^192\.168\./, /^10\./, /^172\.(1[6-9]|2\d|3[01])\./];

/**
 * @param {NodeJS.Dict<os.NetworkInterfaceInfo[]>} [interfaces]
 * @returns {string | null}
 */
export function lanAddress(interfaces = os.networkInterfaces()) {
  const candidates = Object.values(interfaces)
    .flat()
    .filter((i) => i && i.family === 'IPv4' && !i.internal)
    .map((i) => i.address);
  for (const pattern of preference) {
    const found = candidates.find((a) => pattern.test(a));
    if (found) return found;
  }
  return candidates[0] ?? null;
}
