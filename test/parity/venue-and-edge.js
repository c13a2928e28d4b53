// The parity suites' pair of servers: a venue server on a score, mirroring to an edge worker on
// local workerd, returned once the edge holds the venue's stream (not its own "not started"
// snapshot).

import { startShow } from '../support/show.js';
import { startEdge, waitFor } from '../edge/helpers.js';

/**
 * @param {{ scorePath: string }} options
 * @returns {Promise<{ edge: any, server: any }>}
 */
export async function startVenueAndEdge({ scorePath }) {
  const edge = await startEdge();
  const server = await startShow({ scorePath, edgeUrl: edge.url, edgeToken: edge.token });
  await waitFor(() => server.status().edge.connected === true, { timeoutMs: 20_000, what: 'the venue to connect to the edge' });
  await waitFor(
    async () => {
      const res = await fetch(`${edge.url}/poll`);
      const [first] = await res.json();
      return first?.epoch === server.show.stream.epoch();
    },
    { timeoutMs: 20_000, what: "the edge to hold the venue's stream" },
  );
  return { edge, server };
}
