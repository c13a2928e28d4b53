// One call from a record folder to its report's HTML (README.md, "The performance record"):
// read, tell the story, render. Used by `tutti report`, the console's route and the benchmark.

import { readRecord } from '../record/record-reader.js';
import { buildStory } from './record-story.js';
import { renderReport } from './render-report.js';

/**
 * @param {string} dir a record folder
 * @returns {{ html: string, story: import('./record-story.js').Story }}
 * @throws {import('../record/record-reader.js').RecordError} when the folder is not a readable record
 */
export function reportHtml(dir) {
  const { entries, torn, bytes } = readRecord(dir);
  const story = buildStory(entries, { torn, bytes });
  return { html: renderReport(story), story };
}
