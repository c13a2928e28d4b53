// Where the show is, in one record with one reset (issue 25): the beat shown and when it sounds,
// the beat play starts from, the next beat to publish and the anchor it is timed from, what the
// audience sees and hears up to there, and a pending branch. Every move in time (load, stop, seek,
// resume, a branch, a loop's pass) goes through moveTo() or showFrom(), so none can forget a part.

/**
 * @typedef {object} ShowPosition
 * @property {number} current the beat shown in the state
 * @property {number} currentAt when it sounds (or sounded), server ms
 * @property {number} playFrom the beat play() starts from when stopped or paused
 * @property {number} nextBeat while playing, the next beat to publish
 * @property {{ index: number, time: number }} anchor while playing, beat `anchor.index` sounds at `anchor.time`
 * @property {Record<string, unknown>} view what playing up to `current` shows
 * @property {Record<string, unknown> | undefined} audio the sound started up to `current`, if any
 * @property {{ from: number, to: number } | null} jump a pending branch (core/votes/prompt-plan.js) or loop pass: beat `from` is replaced by beat `to`
 * @property {(index: number, time: number, playFrom?: number) => void} moveTo the one reset: beat `index` shown, sounding at `time`
 * @property {(index: number) => void} showFrom the view becomes what playing up to `index` shows, no sound, no pending branch
 */

/**
 * The show's position record, at beat 0 with an empty view.
 * @param {(index: number) => Record<string, unknown>} viewAt what playing up to beat `index` shows (the loaded plan's)
 * @returns {ShowPosition}
 */
export function createShowPosition(viewAt) {
  /** @type {ShowPosition} */
  const at = {
    current: 0,
    currentAt: 0,
    playFrom: 0,
    nextBeat: 0,
    anchor: { index: 0, time: 0 },
    view: {},
    audio: undefined,
    jump: null,
    /**
     * The one reset of the position (load, stop, seek, resume): beat `index` is shown, sounding at
     * `time`, with the view playing up to it would show and no sound; a pending branch is dropped.
     */
    moveTo(index, time, playFrom = at.playFrom) {
      at.current = index;
      at.currentAt = time;
      at.playFrom = playFrom;
      at.showFrom(index);
    },
    /**
     * What the audience sees becomes what playing up to beat `index` shows, with no sound, and a
     * pending branch is dropped: every move in time (moveTo, a seek while playing, the branch).
     */
    showFrom(index) {
      at.jump = null;
      at.view = viewAt(index);
      at.audio = undefined;
    },
  };
  return at;
}
