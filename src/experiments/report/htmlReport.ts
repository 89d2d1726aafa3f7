/**
 * A self-contained HTML report: headings, paragraphs, tables and inline SVG charts, followed by the
 * configuration, the seeds and the software version. No external resources (scripts, styles, fonts
 * or images), so the file can be archived and opened anywhere.
 */
import type { ReportTable } from './ReportTable.js';

/** One block of a report section. */
export type ReportBlock =
  | { readonly kind: 'paragraph'; readonly text: string }
  | { readonly kind: 'table'; readonly table: ReportTable }
  | { readonly kind: 'svg'; readonly svg: string; readonly caption?: string };

export interface ReportSection {
  readonly heading: string;
  readonly blocks: readonly ReportBlock[];
}

export interface HtmlReportInput {
  readonly title: string;
  /** adaprivate version that produced the results. */
  readonly version: string;
  /** The command line or API call that produced the report. */
  readonly command: string;
  readonly sections: readonly ReportSection[];
  /** The configuration(s), recorded verbatim as JSON. */
  readonly config: unknown;
  readonly seeds: readonly number[];
}

/**
 * Escapes text for HTML element content and attribute values.
 *
 * @example
 * escapeHtml('a < b & "c"'); // returns 'a &lt; b &amp; &quot;c&quot;'
 */
export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * A report table as an HTML `<table>` (with its title as caption and its note below).
 *
 * @example
 * htmlTable({ title: 'T', columns: [{ header: 'a' }], rows: [['1']] }).includes('<td>1</td>'); // returns true
 */
export function htmlTable(table: ReportTable): string {
  const th = table.columns
    .map((c) => `<th${c.align === 'right' ? ' class="r"' : ''}>${escapeHtml(c.header)}</th>`)
    .join('');
  const body = table.rows
    .map(
      (r) =>
        `<tr>${r.map((v, i) => `<td${table.columns[i]?.align === 'right' ? ' class="r"' : ''}>${table.columns[i]?.kind === 'verdict' ? verdictBadge(v) : escapeHtml(v)}</td>`).join('')}</tr>`,
    )
    .join('\n');
  const note = table.caption === undefined ? '' : `\n<p class="note">${escapeHtml(table.caption)}</p>`;
  return `<table>\n<caption>${escapeHtml(table.title)}</caption>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>${note}`;
}

const BADGE_CLASS: Readonly<Record<string, string>> = {
  reproduced: 'ok',
  'not reproduced': 'no',
  opposite: 'opp',
  inconclusive: 'unk',
  mixed: 'mix',
  'not tested': 'na',
};

/**
 * A verdict word as an HTML badge (a coloured label; unknown words are shown plainly).
 *
 * @example
 * verdictBadge('reproduced'); // returns '<span class="badge ok">reproduced</span>'
 */
export function verdictBadge(verdict: string): string {
  const c = BADGE_CLASS[verdict];
  return c === undefined ? escapeHtml(verdict) : `<span class="badge ${c}">${escapeHtml(verdict)}</span>`;
}

/**
 * Paragraph text as HTML: escaped, with Markdown `**bold**` turned into <strong> (never shown raw).
 *
 * @example
 * paragraphHtml('a **b**'); // returns 'a <strong>b</strong>'
 */
export function paragraphHtml(text: string): string {
  return escapeHtml(text).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

/** Numbers in displayed JSON rounded to 6 significant digits (the file keeps full precision). */
function roundedJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_k, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(6)) : v),
    2,
  );
}

/** Removes any XML declaration so the SVG can be inlined in HTML. */
function inlineSvg(svg: string): string {
  return svg.replace(/^<\?xml[^>]*>\s*/, '');
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:0.9em}caption{text-align:left;font-weight:bold;padding:0.3em 0}
th,td{border:1px solid #ccc;padding:0.25em 0.6em}th{background:#f3f3f3}.r{text-align:right}
.note{font-size:0.85em;color:#555}figure{margin:1em 0}pre{background:#f6f6f6;padding:1em;overflow:auto;font-size:0.8em}
.badge{display:inline-block;padding:0.05em 0.5em;border-radius:0.8em;font-size:0.85em;font-weight:600;white-space:nowrap}
.ok{background:#d4f4dd;color:#135c2a}.no{background:#fde2e1;color:#8a1c17}.opp{background:#8a1c17;color:#fff}
.unk{background:#eee;color:#444}.mix{background:#fff1c2;color:#6b4d00}.na{background:#fff;color:#777;border:1px dashed #aaa}`;

/**
 * Builds the whole HTML document as one string.
 *
 * @example
 * buildHtmlReport({ title: 'R', version: '0.1.0', command: 'x', sections: [], config: {}, seeds: [1] })
 *   .startsWith('<!DOCTYPE html>'); // returns true
 */
export function buildHtmlReport(input: HtmlReportInput): string {
  const parts: string[] = [];
  parts.push(
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeHtml(input.title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${escapeHtml(input.title)}</h1>`,
    `<p>adaprivate ${escapeHtml(input.version)} &middot; <code>${escapeHtml(input.command)}</code> &middot; seeds ${escapeHtml(input.seeds.join(', '))}</p>`,
  );
  for (const section of input.sections) {
    parts.push(`<h2>${escapeHtml(section.heading)}</h2>`);
    for (const b of section.blocks) {
      if (b.kind === 'paragraph') parts.push(`<p>${paragraphHtml(b.text)}</p>`);
      else if (b.kind === 'table') parts.push(htmlTable(b.table));
      else {
        const cap = b.caption === undefined ? '' : `<figcaption>${escapeHtml(b.caption)}</figcaption>`;
        parts.push(`<figure>${inlineSvg(b.svg)}${cap}</figure>`);
      }
    }
  }
  parts.push(
    '<h2>Configuration</h2>',
    `<details><summary>Configuration JSON (numbers rounded to 6 significant digits; the results files keep them exact)</summary><pre>${escapeHtml(roundedJson(input.config))}</pre></details>`,
    `<p>Seeds: ${escapeHtml(input.seeds.join(', '))}. Version: ${escapeHtml(input.version)}.</p>`,
    '</body>',
    '</html>',
    '',
  );
  return parts.join('\n');
}
