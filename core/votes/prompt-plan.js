// Where the score's prompts open and close, in beats, and the beat each option's branch jumps
// to (docs/reference/score-format.md#prompts-and-branches). Built once per score load.

/**
 * @typedef {object} PlannedPrompt
 * @property {string} id
 * @property {string} question
 * @property {{ id: string, label: string }[]} options
 * @property {number} open beat index the prompt opens on
 * @property {number} close beat index it closes on (open + beats)
 * @property {(number | null)[]} targets per option: the first beat of its section, or null (no branch)
 * @property {(number | null)[]} targetEnds per option: the first beat after its section (the next section's, or the end)
 */

/**
 * @param {any} score a validated score (core/score/validate.js)
 * @param {{ indexOf: (bar: number, beat: number) => number, totalBeats: number }} timeline
 * @returns {PlannedPrompt[]} sorted by `open`; windows never overlap (the validator sees to it)
 */
export function planPrompts(score, timeline) {
  const starts = (score.sections ?? []).map((s) => timeline.indexOf(s.at.bar, s.at.beat));
  const sectionStart = new Map((score.sections ?? []).map((s, i) => [s.mark, starts[i]]));
  /** @param {number} start */
  const endOf = (start) => starts.filter((i) => i > start).sort((a, b) => a - b)[0] ?? timeline.totalBeats;
  return (score.prompts ?? [])
    .map((p) => {
      const open = timeline.indexOf(p.at.bar, p.at.beat);
      return {
        id: p.id,
        question: p.question,
        options: p.options.map((o) => ({ id: o.id, label: o.label })),
        open,
        close: open + p.beats,
        targets: p.options.map((o) => (o.section === undefined ? null : (sectionStart.get(o.section) ?? null))),
        targetEnds: p.options.map((o) => {
          const start = o.section === undefined ? undefined : sectionStart.get(o.section);
          return start === undefined ? null : endOf(start);
        }),
      };
    })
    .sort((a, b) => a.open - b.open);
}

/**
 * The prompt open on beat `index`, if any.
 * @param {PlannedPrompt[]} plan
 * @param {number} index
 * @returns {PlannedPrompt | undefined}
 */
export function promptOn(plan, index) {
  return plan.find((p) => p.open <= index && index < p.close);
}

/**
 * The key of one opening of a prompt: its id and when it opened (base 36 ms), so a vote meant
 * for an earlier opening of the same prompt (after a seek back) is never counted in a later one.
 * @param {string} id
 * @param {number} opens server ms
 * @returns {string}
 */
export function roundKey(id, opens) {
  return `${id}~${Math.max(0, Math.round(opens)).toString(36)}`;
}
