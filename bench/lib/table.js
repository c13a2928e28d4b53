// Plain-text tables for benchmark output: right-aligned numbers, left-aligned text.

/**
 * @typedef {{ key: string, label: string, format?: (v: any, row: any) => string }} Column
 * @typedef {{ labels: string[], cells: string[][], numeric: boolean[] }} TableCells
 */

/**
 * The table's text cells, as printed and as docs/results.md shows them (tools/docs/bench-results.js).
 * @param {Column[]} columns
 * @param {Array<Record<string, any>>} rows
 * @returns {TableCells} labels, one row of cells per row, and which columns hold numbers only
 */
export function tableCells(columns, rows) {
  const cells = rows.map((row) => columns.map((c) => (c.format ? c.format(row[c.key], row) : formatCell(row[c.key]))));
  const numeric = columns.map((_, i) => cells.every((r) => /^[-+]?[\d.,]+[%x]?$|^-$|^n\/a$/.test(r[i])));
  return { labels: columns.map((c) => c.label), cells, numeric };
}

/**
 * @param {Column[]} columns
 * @param {Array<Record<string, any>>} rows
 * @returns {string}
 */
export function formatTable(columns, rows) {
  const { labels, cells, numeric } = tableCells(columns, rows);
  const widths = labels.map((label, i) => Math.max(label.length, ...cells.map((r) => r[i].length)));
  const line = (values) =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(labels), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

/** Default cell text: numbers with sensible precision, missing values as "-". */
export function formatCell(value) {
  if (value === null || value === undefined || (typeof value === 'number' && !Number.isFinite(value))) return '-';
  if (typeof value !== 'number') return String(value);
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  return value.toFixed(abs >= 100 ? 0 : abs >= 10 ? 1 : 2);
}
