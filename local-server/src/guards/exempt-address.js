// Which audience addresses skip the per-address limits (docs/explanation/threat-model.md#floods and "Exempt
// means exactly 127.0.0.1 and ::1"): exactly the server's own machine as 127.0.0.1 and ::1, so
// QA load tests run there measure the server. Other 127/8 addresses (127.0.0.2 …) are treated as
// ordinary LAN addresses: nothing on a venue network can use them, and tests bind to them to
// exercise the limits honestly from this machine.

const EXEMPT = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * True for the addresses exempt from per-address limits (127.0.0.1 and ::1 only).
 * @param {string | undefined} address
 */
export const isExemptAddress = (address) => EXEMPT.has(address ?? '');
