// The record thread (record-thread.js starts it): reading a record's chunks, gunzipping and
// parsing tens of MB of JSON lines and rendering its report take the better part of a second
// for a long show, so they happen here and the show's event loop keeps its beats on time
// (issue 40 item 9). Each request names an operation and a record folder; the answer is small
// (a page of entries, the HTML, the media lists), so handing it back costs the main loop little.

import { parentPort } from 'node:worker_threads';
import { createRecordCache } from './record-cache.js';
import { RecordError } from './record-reader.js';
import { recordMedia } from './record-media.js';
import { recordReportHtml } from '../report/report-html.js';

const cache = createRecordCache();

/** @type {Record<string, (request: any) => any>} */
const operations = {
  entries({ dir, from, limit }) {
    const { entries, torn } = cache.read(dir);
    return { total: entries.length, torn, entries: entries.slice(from, from + limit) };
  },
  report({ dir }) {
    return { html: recordReportHtml(cache.read(dir)).html };
  },
  media({ dir }) {
    const { scores, named } = recordMedia(cache.read(dir).entries);
    return { scores, named: [...named] };
  },
  chunksRead: () => cache.chunksRead(),
};

parentPort?.on('message', (request) => {
  try {
    parentPort?.postMessage({ id: request.id, ok: true, value: operations[request.op](request) });
  } catch (err) {
    const e = /** @type {Error} */ (err);
    parentPort?.postMessage({ id: request.id, ok: false, record: err instanceof RecordError, message: e.message, stack: e.stack });
  }
});
