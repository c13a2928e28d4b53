// One call from a record folder to its report's HTML (docs/how-to/record-and-replay.md#the-performance-record):
// read, tell the story, render. Used by `tutti report`, the console's record thread
// (record/record-worker.js) and the benchmark.

import { readRecord } from '../record/record-reader.js';
import { buildStory } from './record-story.js';
import { renderReport } from './render-report.js';

/**
 * The report of a record already read (record-reader.js readRecord, record-cache.js).
 * @param {ReturnType<typeof readRecord>} record
 * @returns {{ html: string, story: import('./record-story.js').Story }}
 */
export function recordReportHtml({ entries, torn, bytes }) {
  const story = buildStory(entries, { torn, bytes });
  return { html: renderReport(story), story };
}

/**
 * @param {string} dir a record folder
 * @returns {{ html: string, story: import('./record-story.js').Story }}
 * @throws {import('../record/record-reader.js').RecordError} when the folder is not a readable record
 */
export function reportHtml(dir) {
  return recordReportHtml(readRecord(dir));
}
