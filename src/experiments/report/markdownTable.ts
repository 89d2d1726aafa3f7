import type { ReportTable } from './ReportTable.js';

/** Escapes a cell for a GitHub-flavoured Markdown table (pipes and newlines). */
function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/**
 * Renders a table as GitHub-flavoured Markdown (header, alignment row, body), without title.
 *
 * @example
 * markdownTable({ title: 'T', columns: [{ header: 'a' }, { header: 'b', align: 'right' }], rows: [['x', '1']] });
 * // returns '| a | b |\n| --- | ---: |\n| x | 1 |\n'
 */
export function markdownTable(table: ReportTable): string {
  const head = `| ${table.columns.map((c) => cell(c.header)).join(' | ')} |`;
  const sep = `| ${table.columns.map((c) => (c.align === 'right' ? '---:' : '---')).join(' | ')} |`;
  const body = table.rows.map((r) => `| ${r.map(cell).join(' | ')} |`);
  return `${[head, sep, ...body].join('\n')}\n`;
}

/**
 * The table with its title as a level-`level` heading and its caption as a paragraph below.
 *
 * @example
 * markdownSection({ title: 'Main', columns: [{ header: 'a' }], rows: [] }, 3).startsWith('### Main'); // returns true
 */
export function markdownSection(table: ReportTable, level = 3): string {
  const parts = [`${'#'.repeat(level)} ${table.title}\n`, markdownTable(table)];
  if (table.caption !== undefined) parts.push(`\n${table.caption}\n`);
  return parts.join('\n');
}
