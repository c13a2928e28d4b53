// Address ranges for --osc-allow: "192.168.1.0/24", "10.0.0.7" (one host), "fd00::/8", "::1".
// IPv4-mapped IPv6 senders (::ffff:a.b.c.d on a dual-stack socket) match IPv4 ranges.

import net from 'node:net';

/**
 * Parse one CIDR range (a bare address means that single host).
 * @param {string} text
 * @returns {{ address: string, prefix: number, family: 'ipv4' | 'ipv6' } | null}
 */
export function parseCidr(text) {
  const match = /^([^/\s]+)(?:\/(\d{1,3}))?$/.exec(String(text).trim());
  if (!match) return null;
  const version = net.isIP(match[1]);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = match[2] === undefined ? max : Number(match[2]);
  if (prefix > max) return null;
  return { address: match[1], prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/**
 * A predicate "is this sender inside one of the ranges".
 * @param {Array<{ address: string, prefix: number, family: 'ipv4' | 'ipv6' }>} ranges
 * @returns {(address: string) => boolean}
 */
export function createAllowList(ranges) {
  const list = new net.BlockList();
  for (const r of ranges) list.addSubnet(r.address, r.prefix, r.family);
  return (address) => {
    const version = net.isIP(address);
    return version !== 0 && list.check(address, version === 4 ? 'ipv4' : 'ipv6');
  };
}
