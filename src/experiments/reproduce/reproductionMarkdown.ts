/**
 * docs/REPRODUCTION.md: for each paper claim the synthetic study can test, the paper's figure and
 * ours side by side with the computed verdict and the charts; then every table, the claims that
 * need real data, the rules, the settings and the run time.
 */
import { markdownSection, markdownTable } from '../report/markdownTable.js';
import { type ReportTable, reportTable } from '../report/ReportTable.js';
import type { SyntheticAnalysis } from './syntheticAnalysis.js';
import type { NamedChart } from './syntheticCharts.js';
import { type Claim, REAL_DATA_CLAIMS } from './syntheticClaims.js';
import { verdictSummary } from './verdict.js';

export interface RunTiming {
  readonly wallSeconds: number;
  readonly cellsRun: number;
  readonly cellsCached: number;
  /**
   * Cells not run because another cell of the same run (`cellRunKey`) was: their results are its
   * result, relabelled. Absent when none (and in older summaries).
   */
  readonly cellsShared?: number;
  /** Rounds simulated by cells that were run (not cached). */
  readonly rounds: number;
  /** rounds / wall time. */
  readonly roundsPerSecond: number;
  readonly workers: number;
  /** CPU seconds of the process (user + system, worker threads included); absent in older summaries. */
  readonly cpuSeconds?: number;
  /** The machine, e.g. '2 x AMD EPYC 7B13'; absent in older summaries. */
  readonly machine?: string;
}

export interface ReproductionDocInput {
  readonly analysis: SyntheticAnalysis;
  readonly claims: readonly Claim[];
  readonly tables: readonly ReportTable[];
  readonly charts: readonly NamedChart[];
  /** Path of the chart directory relative to the Markdown file (e.g. 'img/reproduction'). */
  readonly imgDir: string;
  readonly version: string;
  readonly command: string;
  readonly timing: RunTiming;
}

/**
 * The headline part of a claim as text: its label, our estimate and the paper's figure, e.g.
 * 'eps = 1: TS vs UCB: +0.0% [-1.2%, +1.1%] (paper +1.5%)'; '' when the claim has none.
 *
 * @example
 * headlineText(claim); // returns e.g. 'eps = 1: TS vs UCB: +0.0% [-1.2%, +1.1%] (paper +1.5%)'
 */
export function headlineText(c: Claim): string {
  const p = c.parts[c.headline];
  return p === undefined ? '' : `${p.label}: ${p.ours} (paper ${p.paper})`;
}

/**
 * The verdict summary table: one row per claim, with our headline number beside the paper's and
 * the verdict with its parts' counts.
 *
 * @example
 * claimsTable(claims).columns.length; // returns 4 (3 when no claim has a plain-words question)
 */
export function claimsTable(claims: readonly Claim[]): ReportTable {
  const plain = claims.some((c) => c.plain !== undefined);
  return reportTable({
    title: 'Verdicts',
    columns: [
      { header: 'What the paper claims' },
      ...(plain ? [{ header: 'In plain words' }] : []),
      { header: 'Ours (mean [95% CI]) beside the paper' },
      { header: 'Verdict (parts)' },
    ],
    rows: claims.map((c) => [
      c.title,
      ...(plain ? [c.plain ?? ''] : []),
      headlineText(c),
      verdictSummary(c.counts),
    ]),
  });
}

/**
 * The bottom line in two or three sentences: how many claims reproduced, and each short-named
 * claim's headline number beside the paper's. `scale` 'full' is the paper-sized run; any other
 * scale is said to be indicative only.
 *
 * @example
 * bottomLine(claims, 'full').startsWith('**Bottom line'); // returns true
 */
export function bottomLine(claims: readonly Claim[], scale: string): string {
  const n = (v: Claim['verdict']) => claims.filter((c) => c.verdict === v).length;
  const tested = claims.filter((c) => c.verdict !== 'not tested').length;
  const none = n('not reproduced') + n('inconclusive') + n('opposite');
  const count = (k: number) => (k === 0 ? 'none' : String(k));
  const counts = `${count(n('reproduced'))} ${n('reproduced') <= 1 ? 'reproduces' : 'reproduce'} in full, ${count(n('mixed'))} in part and ${count(none)} not at all${n('opposite') > 0 ? ` (${n('opposite')} of them come out opposite)` : ''}`;
  const figures = claims
    .filter((c) => c.short !== undefined && c.parts[c.headline] !== undefined)
    .map((c) => {
      const p = c.parts[c.headline]!;
      return `${c.short} (${p.label.replace(/:.*$/, '')}): ours ${p.ours.replace(/, \d+ seeds \(half-width [^)]*\)$/, '')}, paper ${p.paper} (${p.verdict})`;
    });
  const scaleText =
    scale === 'full'
      ? ''
      : ` This is a **${scale}** run: its intervals are wide and its numbers indicative only.`;
  return `**Bottom line.** Of the paper's ${tested} claims tested here, ${counts}.${figures.length > 0 ? ` Ours beside the paper's: ${figures.join('; ')}.` : ''}${scaleText}`;
}

/**
 * The parts of one claim: the paper's figure and ours side by side, the detectable effect and the
 * verdict of each part.
 *
 * @example
 * claimPartsTable(claim).columns.length; // returns 5
 */
export function claimPartsTable(c: Claim): ReportTable {
  return reportTable({
    title: c.title,
    columns: [
      { header: 'Part' },
      { header: 'Paper' },
      { header: 'Ours (mean [95% CI])' },
      { header: 'Detectable (80% power)' },
      { header: 'Verdict', kind: 'verdict' },
    ],
    rows: c.parts.map((p) => [p.label, p.paper, p.ours, p.detectable ?? '-', p.verdict]),
  });
}

/**
 * One claim as Markdown: heading at `level`, the paper's statement, the verdict, the parts table
 * (paper and ours side by side), the rule, the note and the charts (`img(name)` gives each chart's
 * Markdown image line, or '').
 *
 * @example
 * claimMarkdown(claim, () => '', 3).startsWith('### '); // returns true
 */
export function claimMarkdown(c: Claim, img: (chart: string) => string, level = 3): string {
  const out: string[] = [];
  out.push(`${'#'.repeat(level)} ${c.title}\n`);
  out.push(`**Paper:** ${c.paper}\n`);
  out.push(`**Verdict: ${verdictSummary(c.counts)}.**\n`);
  out.push(markdownTable(claimPartsTable(c)));
  out.push(`\n*Rule:* ${c.rule}\n`);
  if (c.note !== undefined) out.push(`*Note:* ${c.note}\n`);
  for (const ch of c.charts) {
    const s = img(ch);
    if (s !== '') out.push(s);
  }
  return out.join('\n');
}

/**
 * The whole Markdown document.
 *
 * @example
 * reproductionMarkdown(input).startsWith('# Reproduction'); // returns true
 */
export function reproductionMarkdown(input: ReproductionDocInput): string {
  const { analysis: a, claims } = input;
  const chartByName = new Map(input.charts.map((c) => [c.name, c]));
  const img = (name: string) => {
    const c = chartByName.get(name);
    return c === undefined ? '' : `![${c.title}](${input.imgDir}/${name}.svg)\n`;
  };
  const out: string[] = [];
  out.push('# Reproduction of the synthetic study\n');
  out.push(`${bottomLine(claims, a.scale.name)}\n`);
  out.push(
    `Generated by \`${input.command}\` (adaprivate ${input.version}); regenerate with the same command. Scale **${a.scale.name}**: ${a.seeds.length} seeds (${a.seeds.join(', ')}), T = ${a.scale.horizon}, d = ${a.scale.env.dim}, ${a.scale.env.arms} arms, ${a.scale.env.armsPerRound} offered per round, ${a.scale.env.link} link, ||theta*|| = ${a.scale.env.thetaNorm}, lambda = 1, delta = ${a.scale.delta}, cold start.${a.scale.name === 'full' ? '' : ' **This is not the paper-sized run**: numbers are indicative only.'}\n`,
  );
  out.push(
    'Every verdict below is computed from the numbers by the rule printed under it; none is written by hand. "% of non-private" is the mean reward relative to non-private LinTS (v = 1) on the same seeds. Rewards are expected rewards per round (the mean of sigmoid(x^T theta*) of the chosen arm), averaged over the T rounds.\n',
  );
  out.push(markdownTable(claimsTable(claims)));
  out.push('\n## Claims\n');
  for (const c of claims) out.push(claimMarkdown(c, img, 3));
  out.push('## Claims that need real data\n');
  out.push(
    markdownTable(
      reportTable({
        title: 'Real data',
        columns: [{ header: 'Paper' }, { header: 'Tested by' }, { header: 'Our result' }],
        rows: REAL_DATA_CLAIMS.map((c) => [c.paper, `\`${c.command}\``, `[${c.doc}](${c.doc})`]),
      }),
    ),
  );
  out.push(
    "\nNot run here: the paper's remark that on a purely linear environment the TS advantage is 1.2-1.8% (`adaprivate run --link linear` can check it).\n",
  );
  out.push('## Tables\n');
  for (const t of input.tables) out.push(markdownSection(t, 3));
  out.push('## Charts\n');
  for (const c of input.charts) out.push(`${img(c.name)}`);
  const t = input.timing;
  out.push('## Run\n');
  out.push(
    `Wall time ${t.wallSeconds.toFixed(1)} s${t.cpuSeconds === undefined ? '' : `, CPU time ${t.cpuSeconds.toFixed(1)} s (user + system, worker threads included)`} on ${t.workers} worker thread(s)${t.machine === undefined ? '' : ` of ${t.machine}, shared with other jobs (the wall time is not an idle-machine figure; CPU time / ${t.workers} is the expected idle wall time)`}; ${t.cellsRun} cells run (${t.rounds.toLocaleString('en-US')} rounds, ${Math.round(t.roundsPerSecond).toLocaleString('en-US')} rounds/s)${t.cellsShared === undefined ? '' : `, ${t.cellsShared} identical to a cell run (the same policy configuration once defaults are filled in) and taken from it`}, ${t.cellsCached} taken from the cache.\n`,
  );
  return out.join('\n');
}
