// A problem a user must fix before the show server can start (bad score, port in use).

/** Raised for problems a user must fix (bad score, port in use); carries a code. */
export class StartupError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {Array<{ path: string, message: string }>} [problems] a score's problems (INVALID_SCORE)
   */
  constructor(code, message, problems = []) {
    super(message);
    this.code = code;
    this.problems = problems;
  }
}
