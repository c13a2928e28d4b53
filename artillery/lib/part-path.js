// Artillery writes each part of a run to a temporary `….part.json`, which `npm run loadtest`
// merges into the one result file and deletes. Artillery's own "Log file: …" line names the
// temporary file; shown as is, it sends the reader to a path that no longer exists.

/**
 * An echo for Artillery's output lines that names the final result file instead of the part file.
 * @param {string} partFile the temporary file given to `artillery run --output`
 * @param {string} resultFile the file `npm run loadtest` writes
 * @param {(line: string) => void} write where lines go
 * @returns {(line: string) => void}
 */
export function echoWithResultPath(partFile, resultFile, write) {
  return (line) => write(line.includes(partFile) ? line.split(partFile).join(resultFile) : line);
}
