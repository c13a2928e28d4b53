// Turns the state into what the page shows and plays, with the flywheel (README.md, `segment`
// and `ahead`): the lean state (derived here too, so the full stream of a server or edge without
// `?stream=lean` works the same), the views and sounds sent ahead, and the beat sounding at any
// time. Keeps no timers: main.js asks it what is due and when to wake next.

import { deriveLeanState } from '#core/fanout/lean-state.js';
import { flywheelSegment, beatAt, nextBeat, plannedViews, aheadItems } from '#core/client/flywheel.js';
import { beatInSegment } from '#core/score/segment.js';

/** Tempo as the console shows it: whole or one decimal (a ramp's 113.333… reads 113.3). */
export const roundTempo = (bpm) => Math.round(bpm * 10) / 10;

export function createFlywheelPlan() {
  /** @type {Record<string, any> | null} */
  let lean = null;
  let plannedFor = { view: undefined, ahead: undefined };
  let lastShown = -1;

  return {
    /**
     * A new full or lean state was applied. Returns what changed for the caller to schedule.
     * @param {Record<string, any>} state
     * @param {boolean} epochChanged
     */
    update(state, epochChanged) {
      if (epochChanged) lean = null;
      lean = deriveLeanState(lean, state);
      const segment = flywheelSegment(lean);
      const fresh = lean.view !== plannedFor.view || lean.ahead !== plannedFor.ahead;
      plannedFor = { view: lean.view, ahead: lean.ahead };
      const windowKey = segment ? `${Object.keys(lean.ahead ?? {}).sort()[0]}|${segment.index}|${segment.at}` : 'still';
      return {
        lean,
        segment,
        views: fresh ? plannedViews(lean).map((v) => ({ ...v, key: `${windowKey}|${v.at}` })) : null,
        sounds: fresh && segment ? aheadItems(lean).filter((item) => item.audio).map((item) => ({ ...item.audio, at: item.at })) : [],
      };
    },
    state: () => lean,
    /**
     * The beat to show at `serverNow` if it is not the one shown already, and when the next one is due.
     * @param {number} serverNow
     */
    beat(serverNow) {
      const segment = flywheelSegment(lean);
      if (!segment) return { show: null, nextAt: null };
      const current = beatAt(segment, serverNow);
      const upcoming = current ? nextBeat(segment, current.index) : beatInSegment(segment, segment.index);
      const show = current && current.index !== lastShown ? current : null;
      if (show) lastShown = show.index;
      return { show, nextAt: upcoming ? upcoming.at : null };
    },
    /** Forget the beat shown (a new segment may show the same index again, e.g. after a seek). */
    resetShown() {
      lastShown = -1;
    },
  };
}
