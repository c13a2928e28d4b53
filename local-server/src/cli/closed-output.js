// A reader that goes away must not take the process with it: `tutti import piece.mid | head`
// closes the pipe after ten lines, and journald restarting under systemd (docs/systemd) closes a
// venue server's stdout mid-show. Node then fails the next write with EPIPE, an 'error' event
// nobody handles, and the process dies with a stack trace. Here those writes are dropped: an
// import still writes its score, a show plays on (its log file, if any, keeps everything).

const GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

/**
 * Keep writing to a closed stdout / stderr from crashing the process: the lost output is dropped;
 * any other stream error is thrown as before.
 * @param {NodeJS.WriteStream[]} [streams] default: process.stdout and process.stderr
 */
export function dropOutputToClosedReaders(streams = [process.stdout, process.stderr]) {
  for (const stream of streams) {
    stream.on('error', (/** @type {NodeJS.ErrnoException} */ error) => {
      if (!GONE.has(error.code ?? '')) throw error;
    });
  }
}
