// Loading and saving the score file (SPEC §11): GET /api/score/document gives the file as written
// and its revision; PUT sends the document back with that revision. The server's refusals become
// choices: the file changed on disk meanwhile (409 STALE_REVISION) → reload it or overwrite it;
// the show is playing (409 PLAYING) → apply now or wait; problems (400) → shown at their cues.

/**
 * @param {{ api: ReturnType<typeof import('../api.js').createApi>, state: ReturnType<typeof import('./editor-state.js').createEditorState>,
 *   ask: (text: string, choices: Array<[string, () => void]>, kind?: string) => void, onProblems: (problems: Array<{ path: string, message: string }>) => void }} options
 */
export function createSaveFlow({ api, state, ask, onProblems }) {
  let busy = false;
  /** The file the document came from (GET's `path`). */
  let path = '';

  async function load() {
    const answer = await api.get('/api/score/document');
    // A missing or unreadable file: the server says why (docs/reference/score-editing-api.md).
    if (answer.score === null) throw new Error(answer.problem ?? 'the score file could not be read');
    state.load(answer.score, answer.revision);
    path = answer.path;
    return answer;
  }

  /**
   * @param {{ apply?: boolean, overwrite?: boolean }} [how] apply: while playing, at once;
   *   overwrite: over a file changed on disk (sends the file's current revision)
   */
  async function save(how = {}) {
    if (busy) return;
    busy = true;
    try {
      let revision = state.revision();
      if (how.overwrite) revision = (await api.get('/api/score/document')).revision;
      const answer = await api.put('/api/score/document', { revision, score: state.doc(), ...(how.apply ? { apply: true } : {}) });
      state.saved(answer.revision);
      ask(how.apply ? 'Saved and applied to the running show.' : 'Saved.', [], 'ok');
    } catch (err) {
      refused(/** @type {any} */ (err), how);
    } finally {
      busy = false;
    }
  }

  function refused(/** @type {any} */ err, how) {
    if (err.status === 409 && err.code === 'STALE_REVISION') {
      ask('The score file changed on disk since it was loaded here (another editor?).', [
        ['Reload the file (drops these edits)', () => void load().then(() => ask('Reloaded from the file.', [], 'ok'))],
        ['Overwrite the file with these edits', () => void save({ ...how, overwrite: true })],
      ]);
    } else if (err.status === 409 && err.code === 'PLAYING' && !how.apply) {
      ask('The show is playing: saving now changes what the hall sees from the next beat on.', [
        ['Apply now', () => void save({ ...how, apply: true })],
        ['Not now', () => ask('Not saved: save again when the show is stopped.', [])],
      ]);
    } else if (err.status === 400 && err.problems?.length) {
      onProblems(err.problems);
      ask(`Not saved: ${err.problems.length} problem${err.problems.length === 1 ? '' : 's'} (shown at the cues).`, [], 'bad');
    } else {
      ask(`Not saved: ${err.message}`, [], 'bad');
    }
  }

  /**
   * Follow the file when another console saved or applied it as revision `revision`: reloaded
   * only when that is not ours (our own save's news finds our revision), nothing here is unsaved,
   * and the file still is that revision (a change on disk since is for the next save's 409).
   * True if reloaded.
   * @param {string} revision
   */
  async function follow(revision) {
    if (busy || state.dirty() || revision === state.revision()) return false;
    const answer = await api.get('/api/score/document');
    if (busy || state.dirty() || answer.score === null || answer.revision !== revision) return false;
    state.load(answer.score, answer.revision);
    path = answer.path;
    return true;
  }

  return { load, save, follow, path: () => path };
}
