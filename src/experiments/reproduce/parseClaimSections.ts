/**
 * Reads the claims back from a reproduction document this code wrote (docs/REPRODUCTION*.md): each
 * `### title` section with a `**Paper:**` line and a parts table becomes a claim with its parts
 * (label, paper, ours, detectable, verdict) and, where the ours column is a mean with a 95% CI, the
 * estimate as numbers. The committed documents are the committed results of studies that take
 * hours, so re-rendering summaries and charts from them needs no re-run
 * (scripts/rerender-reproduction-docs.mjs).
 */
import type { Claim } from './claims/evaluateClaim.js';
import {
  type ClaimPart,
  combineVerdicts,
  countVerdicts,
  type Estimate,
  VERDICTS,
  type Verdict,
} from './verdict.js';

const NUM = String.raw`([+-]?\d+(?:\.\d+)?)`;
const ESTIMATE = new RegExp(String.raw`^${NUM}%? \[${NUM}%?, ${NUM}%?\]`);

/**
 * The estimate in an ours text such as '+0.0% [-1.2%, +1.1%]', '-0.6% [-1.0%, -0.2%], 94 seeds
 * (half-width 0.42 points)' or '70.4 [70.0, 70.8]'; undefined when the text is not one.
 *
 * @example
 * parseEstimate('-0.6% [-1.0%, -0.2%], 94 seeds (half-width 0.42 points)'); // returns { mean: -0.6, lo: -1, hi: -0.2, n: 94 }
 */
export function parseEstimate(text: string): Estimate | undefined {
  const m = ESTIMATE.exec(text.trim());
  if (m === null) return undefined;
  const seeds = /, (\d+) seeds/.exec(text);
  return {
    mean: Number(m[1]),
    lo: Number(m[2]),
    hi: Number(m[3]),
    ...(seeds === null ? {} : { n: Number(seeds[1]) }),
  };
}

function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(' | ')
    .map((c) => c.trim());
}

/**
 * The claims of a reproduction document, in document order (verdicts and counts recomputed from
 * the parts' verdicts; `headline` is the first tested part, `id` the title).
 *
 * @example
 * parseClaimSections(readFileSync('docs/REPRODUCTION.md', 'utf8'))[0]?.title; // returns e.g. 'Default TS beats default UCB by 0.5-1.5%, significantly'
 */
export function parseClaimSections(markdown: string): Claim[] {
  const plainByTitle = new Map<string, string>();
  for (const line of markdown.split('\n')) {
    const c = cells(line);
    if (line.startsWith('| ') && c.length >= 4 && c[1]?.endsWith('?')) plainByTitle.set(c[0]!, c[1]);
  }
  const claims: Claim[] = [];
  const sections = markdown.split(/\n(?=### )/);
  for (const sec of sections) {
    const lines = sec.split('\n');
    if (!lines[0]!.startsWith('### ')) continue;
    const title = lines[0]!.slice(4).trim();
    const paperLine = lines.find((l) => l.startsWith('**Paper:** '));
    const head = lines.findIndex((l) => l.startsWith('| Part | Paper | Ours'));
    if (paperLine === undefined || head < 0) continue;
    const parts: ClaimPart[] = [];
    for (let i = head + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
      const [label, paper, ours, detectable, verdict] = cells(lines[i]!);
      if (!VERDICTS.includes(verdict as Verdict)) continue;
      const estimate = parseEstimate(ours ?? '');
      parts.push({
        label: label!,
        paper: paper!,
        ours: ours!,
        verdict: verdict as Verdict,
        detectable: detectable === '-' || detectable === undefined ? null : detectable,
        ...(estimate === undefined ? {} : { estimate }),
      });
    }
    const rule = lines.find((l) => l.startsWith('*Rule:* '));
    const note = lines.find((l) => l.startsWith('*Note:* '));
    const vs = parts.map((p) => p.verdict);
    const plain = plainByTitle.get(title);
    claims.push({
      id: title,
      title,
      ...(plain === undefined ? {} : { plain }),
      paper: paperLine.slice('**Paper:** '.length),
      parts,
      rule: rule === undefined ? '' : rule.slice('*Rule:* '.length),
      charts: [],
      ...(note === undefined ? {} : { note: note.slice('*Note:* '.length) }),
      headline: parts.findIndex((p) => p.verdict !== 'not tested'),
      verdict: combineVerdicts(vs),
      counts: countVerdicts(vs),
    });
  }
  return claims;
}
