// Plain-text tables for benchmark output: right-aligned numbers, left-aligned text.

/**
 * @param {Array<{ key: string, label: string, format?: (v: any, row: any) => string }>} columns
 * @param {Array<Record<string, any>>} rows
 * @returns {string}
 */
export function formatTable(columns, rows) {
  const cells = rows.map((row) => columns.map((c) => (c.format ? c.format(row[c.key], row) : formatCell(row[c.key]))));
  const widths = columns.map((c, i) => Math.max(c.label.length, ...cells.map((r) => r[i].length)));
  const numeric = columns.map((_, i) => cells.every((r) => /^[-+]?[\d.,]+[%x]?$|^-$|^n\/a$/.test(r[i])));
  const line = (values) =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.label)), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

/** Default cell text: numbers with sensible precision, missing values as "-". */
export function formatCell(value) {
  if (value === null || value === undefined || (typeof value === 'number' && !Number.isFinite(value))) return '-';
  if (typeof value !== 'number') return String(value);
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  return value.toFixed(abs >= 100 ? 0 : abs >= 10 ? 1 : 2);
}
