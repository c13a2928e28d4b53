// A four-bar score whose one cue (bar 1 beat 2) carries text, true, false, a whole number and a
// decimal: what OSC out makes of true/false (docs/reference/osc.md#address-space).

/** The cue's arguments as written in the score. */
const FLAG_ARGS = ['A', true, false, 3, 0.5];

/**
 * @param {string} address the cue's OSC address
 * @returns {object} a tutti-score/1 score
 */
export function flagsScore(address) {
  return {
    format: 'tutti-score/1',
    id: 'flags',
    title: 'Flags',
    bars: 4,
    meter: [{ bar: 1, beats: 4, unit: 4 }],
    tempo: [{ at: { bar: 1 }, bpm: 240 }],
    cues: [{ at: { bar: 1, beat: 2 }, osc: { address, args: FLAG_ARGS } }],
  };
}
