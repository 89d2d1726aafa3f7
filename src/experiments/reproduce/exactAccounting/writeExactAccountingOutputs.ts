/**
 * Writes the outputs of an exact-accounting study (synthetic or MovieLens): the chart, results.json,
 * tables.md and REPORT.md into the output directory and, with a document path, the study's section of
 * that document with its chart in img/reproduction/ beside it.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { upsertSectionInFile } from '../../report/markedSections.js';
import type { Claim } from '../claims/evaluateClaim.js';
import { exactAccountingSvg } from './exactAccountingChart.js';
import { withExactAccountingLine } from './withExactAccountingLine.js';

/** What {@link writeExactAccountingOutputs} writes. */
export interface ExactAccountingOutputs {
  readonly outDir: string;
  /** The study's claims (the chart is drawn from them). */
  readonly claims: readonly Claim[];
  /** The study's Markdown section, given the chart's path relative to the document (null: no chart). */
  readonly section: (chartPath: string | null) => string;
  /** The full text of results.json. */
  readonly resultsJson: string;
  /** The full text of tables.md. */
  readonly tablesMarkdown: string;
  /** Also set the section `sectionId` of this Markdown file; undefined (default): no document. */
  readonly docPath?: string;
  /** Id of the marked section in the document (EXACT_SECTIONS). */
  readonly sectionId: string;
}

/**
 * Writes `claim-exact-accounting.svg` (when the chart has data), results.json, tables.md and REPORT.md
 * into `outDir`, then, with `docPath`, the chart into img/reproduction/ beside the document and the
 * section into the document. Returns the section (REPORT.md's text) and the files written, in order.
 *
 * @example
 * await writeExactAccountingOutputs({ outDir, claims, section, resultsJson, tablesMarkdown, sectionId: EXACT_SECTIONS.synthetic.id });
 */
export async function writeExactAccountingOutputs(
  o: ExactAccountingOutputs,
): Promise<{ markdown: string; files: string[] }> {
  const chartFile = 'claim-exact-accounting.svg';
  const files: string[] = [];
  const write = async (p: string, text: string) => {
    await writeFile(p, text);
    files.push(p);
  };
  const svg = await exactAccountingSvg(o.claims, null);
  if (svg !== null) await write(join(o.outDir, chartFile), svg);
  const markdown = o.section(svg === null ? null : chartFile);
  await write(join(o.outDir, 'results.json'), o.resultsJson);
  await write(join(o.outDir, 'tables.md'), o.tablesMarkdown);
  await write(join(o.outDir, 'REPORT.md'), markdown);
  if (o.docPath !== undefined) {
    const img = join(dirname(o.docPath), 'img', 'reproduction');
    const docSvg = await exactAccountingSvg(o.claims, o.docPath);
    if (docSvg !== null) {
      await mkdir(img, { recursive: true });
      await write(join(img, chartFile), docSvg);
    }
    const text = o.section(docSvg === null ? null : `img/reproduction/${chartFile}`);
    if (upsertSectionInFile(o.docPath, o.sectionId, text)) {
      // the document's opening paragraph on exact accounting follows the section just written
      await writeFile(o.docPath, withExactAccountingLine(await readFile(o.docPath, 'utf8')));
      files.push(o.docPath);
    }
  }
  return { markdown, files };
}
