// What a "tutti-score/1" score is, as far as the validator's rules are concerned: the format id,
// the size limits every rule checks against, and the normalized shape the rules produce.
// Kept apart from the rules so each rule module can read them without importing validate.js.

/** The only format this validator understands. */
export const SCORE_FORMAT = 'tutti-score/1';

/** Size limits: a score beyond them is almost certainly a mistake, and they bound the work done here. */
export const SCORE_LIMITS = Object.freeze({
  bars: 10_000,
  beatsPerBar: 32,
  bpmMin: 10,
  bpmMax: 400,
  meterEntries: 10_000,
  tempoEntries: 10_000,
  sections: 1_000,
  parts: 64,
  assets: 256,
  cues: 100_000,
  titleChars: 200,
  textChars: 2_000,
  instructionChars: 500,
  labelChars: 200,
  markChars: 8,
  srcChars: 500,
  oscArgs: 32,
  oscStringChars: 1_000,
  dataDepth: 32,
  dataNodes: 20_000,
  dataChars: 65_536,
  problems: 100,
  // Prompts (validate-prompts.js): how many, how long open, options per prompt, text lengths.
  prompts: 256,
  promptBeats: 1_024,
  promptOptionsMin: 2,
  promptOptionsMax: 6,
  questionChars: 200,
  optionLabelChars: 60,
  reactions: 256,
  // Graphic scores (validate-graphic.js): strips, images per strip, marks per strip, image size.
  graphicScores: 65,
  graphicImages: 256,
  graphicMarks: 10_000,
  graphicPixels: 1_000_000,
});

/**
 * @typedef {import('./format-problems.js').ScoreProblem} ScoreProblem
 * @typedef {{ bar: number, beat: number }} Position
 * @typedef {{ bar: number, beats: number, unit: number, count?: number }} MeterEntry
 *   `beats`/`unit`: the printed signature; `count`: the beats counted per bar when not `beats`
 *   (docs/reference/meter.md#counted-beats)
 * @typedef {{ at: Position, bpm: number, to?: number, until?: Position, unit?: number, dotted?: boolean }} TempoEntry
 *   `unit` (+`dotted`): the note value bpm counts, when not the bar's counted beat
 * @typedef {{ at: Position, mark: string, name?: string }} Section
 * @typedef {{ id: string, name?: string, osc: string }} Part
 * @typedef {{ id: string, kind: 'audio' | 'image', src: string, bytes?: number }} Asset
 * @typedef {{ text?: string, instruction?: string, color?: string, image?: string, data?: Record<string, unknown>, score?: string }} View
 *   `score`: the part (or "all") whose engraved pages the audience follows (audience-score.js)
 * @typedef {{ at: Position, label?: string, view?: View, audio?: { asset: string, gain: number },
 *   osc?: { part?: string, address: string, args: Array<number | string | boolean> } }} Cue
 * @typedef {{ id: string, label: string, section?: string }} PromptOption
 * @typedef {{ id: string, at: Position, beats: number, question: string, options: PromptOption[] }} Prompt
 * @typedef {{ at: Position, until: Position, label?: string, full?: number }} Reaction
 * @typedef {{ part: string, images: Array<{ asset: string, width: number, height: number }>,
 *   marks: Array<{ at: Position, x: number }>, end: number }} GraphicScore a strip of images scrolled past a playhead
 *   (docs/reference/graphic-scores.md#the-graphic-field); `end` is the x where the piece ends
 * @typedef {object} Score a validated, normalized score
 * @property {'tutti-score/1'} format
 * @property {string} id
 * @property {string} title
 * @property {string} [composer]
 * @property {number} bars
 * @property {MeterEntry[]} meter
 * @property {TempoEntry[]} tempo
 * @property {Section[]} sections  always present (empty when the score has none)
 * @property {Array<{ bar: number, number: number, pass?: number }>} [printedBars] printed bar numbers, when the score has them (docs/reference/score-format.md#printed-bar-numbers)
 * @property {string} [notation]  the MusicXML / .mxl file beside the score it was made from (docs/reference/notation.md#the-notation-field)
 * @property {Part[]} parts        always present
 * @property {Asset[]} assets      always present
 * @property {View} view           always present (`{}` when the score has none)
 * @property {Cue[]} cues          always present, sorted stably by position
 * @property {Prompt[]} prompts    always present, sorted by position (docs/reference/score-format.md#prompts-and-branches)
 * @property {Reaction[]} reactions always present, sorted by position (docs/reference/score-format.md#reactions)
 * @property {GraphicScore[]} [graphic] drawn notation, when the score has it (docs/reference/graphic-scores.md#the-graphic-field)
 * @typedef {{ ok: boolean, problems: ScoreProblem[], score?: Score }} ValidationResult
 */

/**
 * What earlier rules learned that later ones check against (rules run in dependency order):
 * the last bar, the meter at a bar (only once the whole meter is valid), and the ids declared
 * so far with where they were declared.
 * @typedef {object} ScoreEnv
 * @property {number} [lastBar]
 * @property {(bar: number) => MeterEntry & { printed?: number }} [beatsAt] the meter as counted (beats: the counted beats)
 * @property {Map<string, { path: string, kind?: 'audio' | 'image' }>} assets
 * @property {Map<string, { path: string }>} parts
 * @property {number[]} [cueOrder] the file index of each cue after sorting by position
 * @property {boolean} [notation] the score names its notation (a view may show it: audience-score.js)
 * @property {boolean} [graphic] the score has a graphic score
 */
