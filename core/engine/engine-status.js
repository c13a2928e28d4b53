// What the engine shows (core/engine/engine.js): the audience state (docs/reference/audience-protocol.md#endpoints) and the
// console's status, both projected from the position record, the transport, the tempo, the
// rehearsal controls and, while playing, the flywheel — read once, never stored twice.

/**
 * @param {import('./engine-context.js').ShowContext} show
 */
export function createStatusView(show) {
  const { at, transport, tempo, rehearsal } = show;

  /** The audience position: bar, beat, beats in the bar, when it sounds, beat index. */
  function position() {
    const pos = show.loaded.timeline.positionOf(at.current);
    return { bar: pos.bar, beat: pos.beat, beats: pos.beats, at: Math.round(at.currentAt), index: at.current };
  }

  /** The audience state. */
  function state() {
    const { plan, flywheel } = show.loaded;
    const section = plan.sectionAt(at.current);
    /** @type {Record<string, unknown>} */
    const s = {
      score: plan.summary,
      transport: transport.value,
      tempo: tempo.bpm(),
      position: position(),
      view: at.view,
    };
    if (section) s.section = { mark: section.mark, ...(section.name ? { name: section.name } : {}), bar: section.bar };
    if (at.audio) s.audio = at.audio;
    Object.assign(s, rehearsal.state());
    if (tempo.percent !== null) s.tempoPercent = tempo.percent;
    const wheel = transport.playing() ? flywheel.state() : null;
    if (wheel) {
      s.segment = wheel.segment;
      s.ahead = wheel.ahead;
    }
    return s;
  }

  return {
    state,
    /** The console's status. */
    status() {
      return {
        transport: transport.value,
        position: position(),
        tempo: tempo.bpm(),
        tempoOverride: tempo.factor !== 1,
        tempoPercent: tempo.percent,
        ...rehearsal.status(),
      };
    },
  };
}
