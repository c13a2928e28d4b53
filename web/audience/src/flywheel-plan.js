// Turns the state into what the page shows and plays, with the flywheel (docs/reference/audience-protocol.md#endpoints
// and `ahead`): the lean state (derived here too, so the full stream of a server or edge without
// `?stream=lean` works the same), the views and sounds sent ahead, and the beat sounding at any
// time. Keeps no timers: main.js asks it what is due and when to wake next.

import { deriveLeanState } from '#core/stream/lean-state.js';
import { flywheelSegment, followingSegment, beatAt, nextBeat, plannedViews, aheadItems } from '#core/client/flywheel.js';
import { beatInSegment } from '#core/engine/segment.js';

/** Tempo as the console shows it: whole or one decimal (a ramp's 113.333… reads 113.3). */
export const roundTempo = (bpm) => Math.round(bpm * 10) / 10;

/** Two segments describe the same run of beats (the same anchor beat, time and tempo). */
const sameSegment = (a, b) => a.index === b.index && a.at === b.at && a.bpm === b.bpm && a.step === b.step;

export function createFlywheelPlan() {
  /** @type {Record<string, any> | null} */
  let lean = null;
  /** The segment the show is in now, and the one before it when the new one simply continues it. */
  let segmentNow = null;
  /**
   * The server publishes the next segment (a tempo or meter change) one lookahead (300 ms) before
   * its first beat, so above 200 bpm it arrives before the old segment's last beat has sounded:
   * that beat is still the old segment's to show.
   */
  let before = null;
  /** The state's `loop` (docs/how-to/rehearse.md#rehearsing) while `before` was the segment: its pass, or its last. */
  let beforeLoop = undefined;
  let plannedFor = { view: undefined, ahead: undefined };
  /**
   * A view with no time (the show stands: stopped, paused, counting in) is keyed by a number that
   * moves on whenever its content changes. One fixed key made the schedule drop every later still
   * view as already shown, so a count-in kept the pre-show view instead of its start bar's.
   */
  let still = { n: 0, json: '' };
  const stillKey = (view) => {
    const json = JSON.stringify(view ?? null);
    if (json !== still.json) still = { n: still.n + 1, json };
    return `still${still.n}`;
  };
  /** The beat shown last (its index and time: a loop shows the same index again, later). */
  let lastShown = { index: -1, at: 0 };

  return {
    /**
     * A new full or lean state was applied. Returns what changed for the caller to schedule;
     * `continued`: the new segment carries on where the old one ends (nothing to take back).
     * @param {Record<string, any>} state
     * @param {boolean} epochChanged
     */
    update(state, epochChanged) {
      if (epochChanged) lean = null;
      const previousLoop = lean?.loop;
      lean = deriveLeanState(lean, state);
      const segment = flywheelSegment(lean);
      // A continuation starts exactly where the old segment ends, or is the segment the old one said
      // follows it (a loop's next pass, `segment.then`); anything else (seek, tempo, pause) replaces it.
      const after = segmentNow ? followingSegment(segmentNow) : null;
      const continued = Boolean(
        !epochChanged &&
        segment &&
        segmentNow &&
        !sameSegment(segmentNow, segment) &&
        (after ? sameSegment(after, segment) : segment.index === segmentNow.until),
      );
      if (!segment || epochChanged || (segmentNow && !sameSegment(segmentNow, segment))) {
        before = continued ? segmentNow : null;
        beforeLoop = previousLoop;
      }
      segmentNow = segment;
      const fresh = lean.view !== plannedFor.view || lean.ahead !== plannedFor.ahead;
      plannedFor = { view: lean.view, ahead: lean.ahead };
      const windowKey = segment
        ? `${Object.keys(lean.ahead ?? {}).sort()[0]}|${segment.index}|${segment.at}`
        : fresh
          ? stillKey(lean.view)
          : '';
      return {
        lean,
        segment,
        continued,
        views: fresh ? plannedViews(lean).map((v) => ({ ...v, key: `${windowKey}|${v.at}` })) : null,
        sounds:
          fresh && segment
            ? aheadItems(lean)
                .filter((item) => item.audio)
                .map((item) => ({ ...item.audio, at: item.at }))
            : [],
      };
    },
    state: () => lean,
    /**
     * The beat to show at `serverNow` if it is not the one shown already, and when the next one is
     * due. `loop`: the state's rehearsal loop as it was for the segment sounding (the previous
     * state's while the segment before the current one still sounds); `pass`: +1 once the segment
     * the current one says follows it is sounding (a loop's next pass, before the server says so).
     * @param {number} serverNow
     */
    beat(serverNow) {
      const segment = flywheelSegment(lean);
      if (!segment) return { show: null, nextAt: null, active: null, loop: lean?.loop, pass: 0 };
      const then = followingSegment(segment);
      let active = segment;
      if (before && serverNow < segment.at) active = before;
      else if (then && serverNow >= then.at) active = then;
      // After the active segment's last beat: the current one, or what the current one says follows.
      const after = active === before ? segment : active === segment ? then : null;
      const current = beatAt(active, serverNow);
      const upcoming = current
        ? (nextBeat(active, current.index) ?? (after ? beatInSegment(after, after.index) : null))
        : beatInSegment(active, active.index);
      const show = current && (current.index !== lastShown.index || Math.abs(current.at - lastShown.at) > 1) ? current : null;
      if (show) lastShown = { index: show.index, at: show.at };
      return {
        show,
        nextAt: upcoming ? upcoming.at : null,
        active,
        loop: active === before ? beforeLoop : lean?.loop,
        pass: active === then ? 1 : 0,
      };
    },
    /** Forget the beat shown (a new segment may show the same index again, e.g. after a seek). */
    resetShown() {
      lastShown = { index: -1, at: 0 };
    },
  };
}
