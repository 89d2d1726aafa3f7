/**
 * A report table: formatted cells plus the raw values behind them, rendered to Markdown, HTML or
 * CSV by the sibling functions. Tables are plain frozen data, built once and rendered many ways.
 */

/** A raw cell value (what CSV files carry). */
export type RawCell = string | number | null;

export interface ReportColumn {
  readonly header: string;
  /** Default `'left'`; numeric columns use `'right'`. */
  readonly align?: 'left' | 'right';
  /** `'verdict'`: the cells are verdict words, shown as coloured badges in HTML. Default plain text. */
  readonly kind?: 'text' | 'verdict';
}

export interface ReportTable {
  /** Short title (a heading above the table). */
  readonly title: string;
  /** Optional explanation printed under the table (how the numbers were obtained). */
  readonly caption?: string;
  readonly columns: readonly ReportColumn[];
  /** Formatted cells, one array per row, as long as `columns`. */
  readonly rows: readonly (readonly string[])[];
  /** Raw values for CSV (same shape as `rows`); default: the formatted cells. */
  readonly raw?: readonly (readonly RawCell[])[];
}

/**
 * Validates the shape of a table (every row as long as the header) and freezes it.
 *
 * @example
 * reportTable({ title: 'T', columns: [{ header: 'a' }], rows: [['1']] }).rows.length; // returns 1
 */
export function reportTable(table: ReportTable): ReportTable {
  const n = table.columns.length;
  if (n === 0) throw new RangeError(`reportTable "${table.title}": columns must not be empty.`);
  table.rows.forEach((row, i) => {
    if (row.length !== n) {
      throw new RangeError(
        `reportTable "${table.title}": row ${i} has ${row.length} cells, the header has ${n}.`,
      );
    }
  });
  if (table.raw !== undefined) {
    if (table.raw.length !== table.rows.length) {
      throw new RangeError(
        `reportTable "${table.title}": raw has ${table.raw.length} rows, rows has ${table.rows.length}.`,
      );
    }
    table.raw.forEach((row, i) => {
      if (row.length !== n) {
        throw new RangeError(
          `reportTable "${table.title}": raw row ${i} has ${row.length} cells, the header has ${n}.`,
        );
      }
    });
  }
  return Object.freeze({ ...table });
}
