// The replay's images and sounds (docs/how-to/record-and-replay.md#replaying-a-record): the files a record's audience
// had, fetched from `GET /api/records/<id>/media/<path>?score=N` with the console's token. An
// <img> or <audio> cannot send the Authorization header, so each file is fetched once, kept as a
// blob URL for the life of the replay, and revoked when the replay closes or another opens. A
// file the server no longer has (404) stays named by its path, as before.

import { setText } from './dom.js';

/** The prefix of the audience's media URLs (core/score/audience-view.js mediaUrl). */
const MEDIA_PREFIX = 'media/';

/**
 * The bytes of `GET /api/records/<id>/media/<path>?score=N` for a `media/<path>` URL of the
 * record, or null when the server does not have them (404) or cannot be reached.
 * @param {{ token: string, recordId: string, src: string, scoreIndex: number }} what
 * @returns {Promise<Blob | null>}
 */
function fetchMedia({ token, recordId, src, scoreIndex }) {
  const rel = src.slice(MEDIA_PREFIX.length).split('/').map(encodeURIComponent).join('/');
  const url = `/api/records/${encodeURIComponent(recordId)}/media/${rel}?score=${scoreIndex}`;
  return fetch(url, { headers: { authorization: `Bearer ${token}` } })
    .then((res) => (res.ok ? res.blob() : null))
    .catch(() => null);
}

/**
 * @param {{ token: string, image: HTMLImageElement, label: HTMLElement }} deps
 *   image: the preview's <img>; label: where an image not (yet) shown is named
 */
export function createReplayMedia({ token, image, label }) {
  let recordId = /** @type {string | null} */ (null);
  /** Bumped by open and close: a fetch or a sound of an earlier replay is dropped. */
  let generation = 0;
  /** Bumped by stop: a sound still being fetched when the replay paused or jumped is not played. */
  let stops = 0;
  /** `score\npath` → blob URL, or null when the server has no such file. */
  const blobs = new Map();
  /** @type {string[]} every blob URL made, revoked at close */
  const urls = [];
  /** @type {Set<HTMLAudioElement>} */
  const playing = new Set();
  /** Sounds that began to play, for the browser tests (window.__tuttiReplay.media()). */
  const started = [];
  /** Sounds asked for (some may never play: stopped, or their file is gone). */
  let asked = 0;
  let shownImage = /** @type {string | null} */ (null);

  /** The blob URL of a `media/<path>` URL of the record, null when it cannot be had. */
  function blobUrl(src, scoreIndex) {
    if (recordId === null || !src.startsWith(MEDIA_PREFIX)) return Promise.resolve(null);
    const key = `${scoreIndex}\n${src}`;
    if (!blobs.has(key)) {
      const mine = generation;
      const made = fetchMedia({ token, recordId, src, scoreIndex }).then((blob) => {
        if (!blob || mine !== generation) return null;
        const url = URL.createObjectURL(blob);
        urls.push(url);
        return url;
      });
      blobs.set(key, made);
    }
    return blobs.get(key);
  }

  /**
   * Show a view's image (`media/<path>`, or null for none) in the preview; it is named until its
   * bytes are here, and stays named when the server no longer has it.
   * @param {string | null} src
   * @param {number} scoreIndex which of the record's scores it belongs to
   */
  function showImage(src, scoreIndex) {
    const key = src === null ? null : `${scoreIndex}\n${src}`;
    if (key === shownImage) return;
    shownImage = key;
    image.hidden = true;
    image.removeAttribute('src');
    setText(label, src === null ? '' : `image: ${src}`);
    if (src === null) return;
    image.alt = `image: ${src}`;
    blobUrl(src, scoreIndex).then((url) => {
      if (!url || shownImage !== key) return;
      image.src = url;
      image.hidden = false;
      setText(label, '');
    });
  }

  /**
   * Play a sound cue (`media/<path>`) at its gain, unless the replay stopped before it arrived.
   * @param {string} src
   * @param {number} gain 0–1, as the phones played it
   * @param {number} scoreIndex
   */
  function play(src, gain, scoreIndex) {
    asked += 1;
    const mine = generation;
    const stopsNow = stops;
    blobUrl(src, scoreIndex).then((url) => {
      if (!url || mine !== generation || stopsNow !== stops) return;
      const audio = new Audio(url);
      audio.volume = Math.min(1, Math.max(0, Number.isFinite(gain) ? gain : 1));
      playing.add(audio);
      audio.addEventListener('ended', () => playing.delete(audio));
      // Listed once it really plays (the promise resolves when playback has begun).
      audio.play().then(
        () => started.push({ src, gain: audio.volume }),
        () => playing.delete(audio),
      );
    });
  }

  /** Silence every sound playing or on its way (pause, jump, speed change). */
  function stop() {
    stops += 1;
    for (const audio of playing) audio.pause();
    playing.clear();
  }

  /** Forget the replay's files: stop the sounds, revoke every blob URL. */
  function close() {
    stop();
    generation += 1;
    recordId = null;
    showImage(null, 0);
    for (const url of urls.splice(0)) URL.revokeObjectURL(url);
    blobs.clear();
    started.length = 0;
    asked = 0;
  }

  return {
    /** @param {string} id the record now replayed */
    open(id) {
      close();
      recordId = id;
    },
    close,
    stop,
    /** Fetch files before they are due: a sound on time at 1×, an image with its view. @param {Array<{ src: string, scoreIndex: number }>} files */
    prefetch: (files) => files.forEach(({ src, scoreIndex }) => blobUrl(src, scoreIndex)),
    showImage,
    play,
    /** What the browser tests read: sounds asked for and started, how many play now, blob URLs held. */
    status: () => ({
      asked,
      started: started.slice(),
      playing: [...playing].filter((a) => !a.paused).length,
      blobs: urls.length,
    }),
  };
}
