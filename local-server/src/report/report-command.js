// `tutti report [RECORD]` (docs/how-to/record-and-replay.md#the-performance-record): writes one self-contained HTML
// report of a performance record. Every failure is one message and exit 1 (2 for a usage mistake).

import fs from 'node:fs';
import path from 'node:path';
import { defaultStateDir, recordDirFor } from '../show/state-dir.js';
import { listRecords, RecordError } from '../record/record-reader.js';
import { RECORD_ID } from '../record/record-writer.js';
import { reportHtml } from './report-html.js';
import { replaceFile } from '../files/safe-write.js';
import { duration } from './render-report.js';

export const REPORT_USAGE = `Usage: tutti report [RECORD] [--out FILE] [--record-dir DIR]
       tutti report --list [--record-dir DIR]

Writes one self-contained HTML report of a performance record (it opens offline in any browser):
the timeline (sections as played, pauses, seeks, tempo changes, branches), the audience over
time, the votes, push latency and clock sync, errors and refusals.

  RECORD             a record's id (as --list shows it) or its folder; default: the newest record
  --out FILE         where to write the report (default: tutti-report-<id>.html in this folder)
  --record-dir DIR   where records are (default: records/ in the state folder, as tutti serve
                     writes them) [TUTTI_RECORD_DIR]
  --list             list the records: id, date, score, duration, size`;

/** Parse the arguments; `{ error }` for a usage mistake. */
function parseArgs(args) {
  const options = { record: null, out: null, recordDir: null, list: false };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--list') options.list = true;
    else if (arg === '--out' || arg === '--record-dir') {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--')) return { error: `${arg} needs a value` };
      options[arg === '--out' ? 'out' : 'recordDir'] = value;
      i += 1;
    } else if (arg.startsWith('-')) return { error: `unknown flag ${arg}` };
    else if (options.record === null) options.record = arg;
    else return { error: `one record at a time (got "${options.record}" and "${arg}")` };
  }
  return { options };
}

/**
 * @param {string[]} args arguments after "report"
 * @param {{ out: (s: string) => void, err: (s: string) => void, env: Record<string, string | undefined> }} io
 * @returns {Promise<number>} exit code
 */
export async function reportCommand(args, { out, err, env }) {
  if (args.includes('--help') || args.includes('-h')) {
    out(REPORT_USAGE);
    return 0;
  }
  const parsed = parseArgs(args);
  if (parsed.error) {
    err(`tutti report: ${parsed.error}\n\n${REPORT_USAGE}`);
    return 2;
  }
  const options = parsed.options;
  const root = /** @type {string} */ (
    recordDirFor({ recordDir: options.recordDir ?? env.TUTTI_RECORD_DIR ?? null }, defaultStateDir({ env }))
  );
  if (options.list) {
    const records = listRecords(root);
    if (!records.length) out(`No performance records in ${root}.`);
    for (const r of records)
      out(
        `${r.id}  ${new Date(r.startedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC  ${duration(r.durationMs).padStart(8)}  ${(r.bytes / 1024).toFixed(0).padStart(6)} KB  ${r.score?.title ?? '?'}${r.endedAt ? '' : '  (no clean stop)'}`,
      );
    return 0;
  }
  let dir;
  if (options.record === null) {
    const newest = listRecords(root)[0];
    if (!newest) {
      err(`tutti report: no performance records in ${root} (tutti serve writes one per show; --record-dir DIR to look elsewhere)`);
      return 1;
    }
    dir = newest.dir;
  } else
    dir = RECORD_ID.test(options.record) && !fs.existsSync(options.record) ? path.join(root, options.record) : path.resolve(options.record);
  try {
    const { html, story } = reportHtml(dir);
    const file = path.resolve(options.out ?? `tutti-report-${story.id}.html`);
    await replaceFile(file, html);
    out(
      `Wrote ${file} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KB): "${story.scores.join(' → ')}", ${duration(story.end - story.start)} recorded, ${story.actions.length} actions, ${story.votes.length} votes${story.torn ? `, ${story.torn} torn line(s) skipped` : ''}`,
    );
    return 0;
  } catch (e) {
    err(`tutti report: ${e instanceof RecordError ? e.message : `cannot write the report: ${e.message}`}`);
    return 1;
  }
}
