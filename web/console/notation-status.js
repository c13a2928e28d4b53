// The engraving's progress on the score card (docs/reference/notation.md#progress): the composer
// sees the tablets' pages being made, and why not when Verovio cannot engrave the file.

/**
 * One line about the score's notation, or '' when the score has none.
 * @param {{ state: string, file?: string | null, parts?: { done: number, total: number }, error?: string | null } | null | undefined} notation
 * @returns {string}
 */
export function notationText(notation) {
  if (!notation || notation.state === 'none') return '';
  const file = notation.file ? ` ${notation.file}` : '';
  const parts = notation.parts ? `${notation.parts.done} of ${notation.parts.total}` : '';
  if (notation.state === 'engraving') return `Notation${file}: engraving for the part pages, ${parts} done…`;
  if (notation.state === 'ready') return `Notation${file}: engraved, ${parts} on the part pages.`;
  return `Notation${file}: not shown on the part pages. ${notation.error ?? 'Engraving failed.'}`;
}
