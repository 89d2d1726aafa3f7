import type { RawCell, ReportTable } from './ReportTable.js';

/** Quotes a CSV field when needed (RFC 4180: commas, quotes, newlines). */
function field(v: RawCell): string {
  if (v === null) return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Renders rows as RFC 4180 CSV with a header line (numbers at full precision, null and non-finite
 * numbers as empty fields), lines ending in `\n`.
 *
 * @example
 * toCsv(['a', 'b'], [[1, 'x,y']]); // returns 'a,b\n1,"x,y"\n'
 */
export function toCsv(headers: readonly string[], rows: readonly (readonly RawCell[])[]): string {
  const lines = [headers.map(field).join(',')];
  for (const r of rows) {
    if (r.length !== headers.length) {
      throw new RangeError(`toCsv: a row has ${r.length} fields, the header has ${headers.length}.`);
    }
    lines.push(r.map(field).join(','));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A report table as CSV, using its raw values when present.
 *
 * @example
 * tableToCsv({ title: 'T', columns: [{ header: 'a' }], rows: [['1.0']], raw: [[1]] }); // returns 'a\n1\n'
 */
export function tableToCsv(table: ReportTable): string {
  return toCsv(
    table.columns.map((c) => c.header),
    table.raw ?? table.rows,
  );
}
