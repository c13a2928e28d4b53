// The one kind of error an import reports to the composer: a sentence about their file, never a
// stack trace (the command line prints `message` and exits 1).

/** A problem with the file being imported, worded for the composer. */
export class ImportError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'ImportError';
  }
}
