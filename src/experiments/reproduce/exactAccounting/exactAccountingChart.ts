/**
 * The chart of the exact-accounting claim (docs/img/reproduction/claim-exact-accounting.svg): the
 * paired difference exact - paper accounting for AdaPrivate-TS with its 95% CI by epsilon, one
 * series per dataset. Each dataset's study writes its own section; the chart draws the claims of
 * this run and those already in the other dataset's section of the sibling document, so either
 * command leaves a chart with both.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderSvg } from '../../report/renderSvg.js';
import { DIFFERENCE_CHARTS, differenceChartSpec } from '../claimCharts.js';
import type { Claim } from '../claims/evaluateClaim.js';
import { parseClaimSections } from '../parseClaimSections.js';

/** The marked section of each dataset's study and the document that holds it. */
export const EXACT_SECTIONS = {
  synthetic: { id: 'exact-accounting-synthetic', doc: 'REPRODUCTION.md' },
  movielens: { id: 'exact-accounting-movielens', doc: 'REPRODUCTION-movielens.md' },
} as const;

/** The text of marked section `id` in `markdown` ('' when absent). */
export function sectionText(markdown: string, id: string): string {
  const a = markdown.indexOf(`<!-- section:${id}:start -->`);
  const b = markdown.indexOf(`<!-- section:${id}:end -->`);
  return a >= 0 && b > a ? markdown.slice(a, b) : '';
}

/**
 * The exact-accounting claims stored in the documents of `docDir` (both sections), parsed back.
 *
 * @example
 * storedExactClaims('docs').map((c) => c.title); // e.g. ['Same guarantee, exact accounting: AdaPrivate-TS by epsilon (synthetic)', ...]
 */
export function storedExactClaims(docDir: string): Claim[] {
  const out: Claim[] = [];
  for (const s of Object.values(EXACT_SECTIONS)) {
    const p = join(docDir, s.doc);
    if (!existsSync(p)) continue;
    out.push(...parseClaimSections(sectionText(readFileSync(p, 'utf8'), s.id)));
  }
  return out;
}

/**
 * The SVG of the exact-accounting chart from `claims` plus the stored claims of the documents
 * beside `docPath` that `claims` do not replace (same title); null when no series has data.
 *
 * @example
 * await exactAccountingSvg(claims, 'docs/REPRODUCTION.md'); // returns '<svg ...' or null
 */
export async function exactAccountingSvg(
  claims: readonly Claim[],
  docPath: string | null,
): Promise<string | null> {
  const plan = DIFFERENCE_CHARTS.find((d) => d.name === 'claim-exact-accounting')!;
  const mine = new Set(claims.map((c) => c.title));
  const stored =
    docPath === null
      ? []
      : storedExactClaims(dirname(docPath)).filter((c) => !mine.has(c.title) && c.parts.length > 0);
  const spec = differenceChartSpec(plan, [...claims, ...stored]);
  return spec === null ? null : renderSvg(spec);
}
