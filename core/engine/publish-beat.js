// Publication of one beat (core/engine/engine.js): the beat shown moves to it, its cues change
// what the audience sees and hears and send their OSC, the flywheel follows, and the beat and
// the state go out — all one lookahead before the beat sounds, stamped with when it sounds.

import { viewPatch, mergeView, mediaUrl } from '#core/score/audience-view.js';

/**
 * Publish beat `index`, sounding at `sounds` (server ms), and the cues on it.
 * @param {import('./engine-context.js').ShowContext} show
 * @param {number} index
 * @param {number} sounds
 */
export function publishBeat(show, index, sounds) {
  const { at } = show;
  const { plan, timeline, cueIndex, assets, flywheel } = show.loaded;
  at.current = index;
  at.currentAt = sounds;
  const pos = timeline.positionOf(index);
  for (const cue of cueIndex.cuesAt(index)) {
    if (cue.view) at.view = { ...mergeView(at.view, viewPatch(cue.view, assets)), at: Math.round(sounds) };
    if (cue.audio) {
      const asset = assets.get(cue.audio.asset);
      if (asset) at.audio = { cue: cue.n, src: mediaUrl(asset), gain: cue.audio.gain ?? 1, at: Math.round(sounds) };
    }
    if (cue.osc) {
      show.events.onOscCue({ address: plan.oscAddress(cue.osc), args: cue.osc.args ?? [], at: sounds, cue: cue.n });
    }
  }
  flywheel.advance(index, sounds, show.tempo.factor);
  show.events.onBeat({ bar: pos.bar, beat: pos.beat, beats: pos.beats, bpm: show.tempo.bpm(), at: sounds, index });
  show.emitState();
}
