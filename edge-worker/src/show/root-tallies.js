// What the root counts for /healthz?deep=1 (docs/explanation/edge-design.md#design and "Limits per client"): its publisher's frames, the
// viewer frames its shards refused (reported with each push), the viewer requests the Worker
// refused (reported by its isolates) and the media requests that reached it.

import { newFrameCounters } from './publisher-frames.js';
import { createRequestRefusalTally } from '../guards/refusal-counter.js';
import { REFUSALS, newRefusalCounts } from '../shard/viewer-rules.js';

/** The root's counters; each part is filled by the module that sees the event. */
export function createRootTallies() {
  const frames = newFrameCounters();
  const viewerRefused = newRefusalCounts();
  const requestRefusals = createRequestRefusalTally();
  let mediaRequests = 0;
  return {
    frames,
    /** @param {unknown} refused a shard's refusals since its last push (viewer-rules.js); unknown kinds are ignored */
    addViewerRefusals(refused) {
      if (refused === null || typeof refused !== 'object') return;
      for (const kind of REFUSALS) {
        const n = /** @type {Record<string, unknown>} */ (refused)[kind];
        if (Number.isFinite(n)) viewerRefused[kind] += /** @type {number} */ (n);
      }
    },
    /** @param {unknown} counts an isolate's report (refusal-counter.js) */
    addRequestRefusals: (counts) => requestRefusals.add(counts),
    countMediaRequest() {
      mediaRequests += 1;
    },
    stats: () => ({
      frames: { ...frames },
      viewerFramesRefused: { ...viewerRefused },
      viewerRequestsRefused: requestRefusals.counts(),
      viewerRequestRefusalReports: requestRefusals.reports(),
      mediaRequests,
    }),
  };
}
