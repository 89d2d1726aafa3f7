/**
 * The Markdown section of the "same guarantee, exact accounting" study (one per dataset): a bottom
 * line computed from the numbers, the claims with ours beside the paper's (which states none), the
 * table of every policy and budget (reward under each accountant, the paired difference with its
 * 95% CI, the sigma each used, the epsilon each ledger reports), the chart and the run time.
 */
import { policyInfo } from '../../../policies/index.js';
import { formatNumber } from '../../report/format.js';
import { markdownTable } from '../../report/markdownTable.js';
import { type ReportTable, reportTable } from '../../report/ReportTable.js';
import type { Claim } from '../claims/evaluateClaim.js';
import { claimMarkdown, claimsTable } from '../reproductionMarkdown.js';
import { gapText } from '../syntheticTables.js';
import { verdictSummary } from '../verdict.js';
import { exactHeadlineEpsilon } from './exactAccountingClaims.js';
import type { ExactAccountingRow } from './exactAccountingRows.js';

/** Input of {@link exactAccountingSection}. */
export interface ExactSectionInput {
  /** 'synthetic' or 'MovieLens' (in titles and claim names). */
  readonly dataset: string;
  readonly rows: readonly ExactAccountingRow[];
  readonly claims: readonly Claim[];
  /** The run's settings in one paragraph (data, seeds, horizon, ...). */
  readonly setup: string;
  /** What a reward is, e.g. 'mean expected reward per round' or 'replay CTR'. */
  readonly rewardName: string;
  /** Digits and scale of rewards in the table (synthetic: 4 digits; CTR: percent with 2 digits). */
  readonly percentRewards: boolean;
  /** A reduced run (quick/tiny): said in the heading and the bottom line. */
  readonly reduced: string | null;
  /** The chart's Markdown image path, or null (no chart). */
  readonly chartPath: string | null;
  /** The run line (time, cells, machine). */
  readonly runLine: string;
}

const name = (id: string) => policyInfo(id as 'adaprivate-ts').displayName;

const reward = (x: number, pct: boolean) => (pct ? `${formatNumber(100 * x, 2)}%` : formatNumber(x, 4));

/**
 * The table of every (policy, eps): rewards, paired differences, sigmas and ledger epsilons.
 *
 * @example
 * exactAccountingTable(rows, 'mean expected reward', false).columns.length; // returns 9
 */
export function exactAccountingTable(
  rows: readonly ExactAccountingRow[],
  rewardName: string,
  percentRewards: boolean,
): ReportTable {
  const diff = (r: ExactAccountingRow) => {
    const s = (x: number) =>
      `${x >= 0 ? '+' : ''}${percentRewards ? formatNumber(100 * x, 2) : formatNumber(x, 4)}`;
    return `${s(r.difference.mean)} [${s(r.difference.ci95[0])}, ${s(r.difference.ci95[1])}]${percentRewards ? ' points' : ''}`;
  };
  return reportTable({
    title: `Every policy and budget: ${rewardName} under the paper's accounting and the exact one`,
    columns: [
      { header: 'policy' },
      { header: 'eps', align: 'right' },
      { header: 'sigma: paper -> exact (less noise)', align: 'right' },
      { header: 'reward, paper', align: 'right' },
      { header: 'reward, exact', align: 'right' },
      { header: 'exact - paper [95% CI]', align: 'right' },
      { header: 'relative [95% CI]', align: 'right' },
      { header: 'paired t-test', align: 'right' },
      { header: 'eps spent: paper / exact', align: 'right' },
    ],
    rows: rows.map((r) => [
      name(r.policy),
      String(r.epsilon),
      r.sigmaPaper === null || r.sigmaExact === null
        ? 'n/a'
        : `${r.paperAccountant}: ${formatNumber(r.sigmaPaper, 3)} -> ${formatNumber(r.sigmaExact, 3)} (${formatNumber(100 * (1 - r.sigmaExact / r.sigmaPaper), 0)}%)`,
      reward(r.paper.mean, percentRewards),
      reward(r.exact.mean, percentRewards),
      diff(r),
      gapText(r.gap),
      Number.isFinite(r.test.pValue) ? `p = ${formatNumber(r.test.pValue, 3)}` : 'n/a',
      `${formatNumber(r.spentPaper, 3)} / ${formatNumber(r.spentExact, 3)}`,
    ]),
  });
}

/**
 * The bottom line in two or three sentences, computed from the rows: AdaPrivate-TS's gain at the
 * headline budget with its sigmas, at how many budgets its CI is above 0, and across policies.
 *
 * @example
 * exactBottomLine(rows, 'synthetic', null).startsWith('**Bottom line.**'); // returns true
 */
export function exactBottomLine(
  rows: readonly ExactAccountingRow[],
  dataset: string,
  reduced: string | null,
): string {
  const out: string[] = [];
  const e0 = exactHeadlineEpsilon(rows);
  const ts = rows.filter((r) => r.policy === 'adaprivate-ts');
  const h = ts.find((r) => r.epsilon === e0);
  const up = (rs: readonly ExactAccountingRow[]) => rs.filter((r) => r.gap.ci95[0] > 0).length;
  const down = (rs: readonly ExactAccountingRow[]) => rs.filter((r) => r.gap.ci95[1] < 0).length;
  if (h !== undefined) {
    out.push(
      `At the same guarantee (eps = ${e0}, delta = 1e-5), the exact accountant lets AdaPrivate-TS add ${h.sigmaPaper === null || h.sigmaExact === null ? 'less' : `${formatNumber(100 * (1 - h.sigmaExact / h.sigmaPaper), 0)}% less`} noise (sigma ${formatNumber(h.sigmaPaper, 2)} -> ${formatNumber(h.sigmaExact, 2)}), and it earns ${gapText(h.gap)} (${dataset}, paired over ${h.gap.n} seeds).`,
    );
    out.push(
      `Over the ${ts.length} budgets its 95% CI is above 0 at ${up(ts)}${down(ts) > 0 ? `, below 0 at ${down(ts)}` : ''} and contains 0 at ${ts.length - up(ts) - down(ts)}.`,
    );
  }
  const all = rows.length;
  const pol = new Set(rows.map((r) => r.policy)).size;
  out.push(
    `Across ${pol} policies x ${new Set(rows.map((r) => r.epsilon)).size} budgets (${all} comparisons), the gain's CI is above 0 in ${up(rows)}, below 0 in ${down(rows)} and contains 0 in ${all - up(rows) - down(rows)}; the largest mean gain is ${(() => {
      const best = rows.reduce((a, b) => (b.gap.mean > a.gap.mean ? b : a), rows[0]!);
      return `${gapText(best.gap)} (${name(best.policy)}, eps = ${best.epsilon})`;
    })()}.`,
  );
  if (reduced !== null)
    out.push(`This is a **${reduced}** run: its intervals are wide and its numbers indicative only.`);
  return `**Bottom line.** ${out.join(' ')}`;
}

/**
 * The whole section (heading at level 2, claims at level 3).
 *
 * @example
 * exactAccountingSection(input).startsWith('## Same guarantee, exact accounting'); // returns true
 */
export function exactAccountingSection(i: ExactSectionInput): string {
  const table = exactAccountingTable(i.rows, i.rewardName, i.percentRewards);
  const counts = i.claims.map((c) => `${c.title}: ${verdictSummary(c.counts)}`);
  const out: string[] = [
    `## Same guarantee, exact accounting: ${i.dataset}${i.reduced === null ? '' : ` (${i.reduced} run: indicative only)`}`,
    '',
    i.rows.length === 0
      ? '**Bottom line.** No comparison ran.'
      : exactBottomLine(i.rows, i.dataset, i.reduced),
    '',
    i.setup,
    '',
    "**What is compared.** The paper's results above keep the paper's accounting (zCDP; RDP for AdaPrivate-TS-Amp), to reproduce the paper. Here each policy of the table below (every private policy takes the `accountant` option but JDP-LinUCB, whose tree noise has its own analysis) runs at each budget twice on the same seeds: with that accounting and with `accountant: 'exact'` (the exact privacy curve: Gaussian DP, the subsampled Gaussian's closed form, the discrete sampler's proven margin; docs/privacy.md). Both are (eps, delta)-DP at the same eps and delta; the exact one needs less noise. The environment, the exploration stream and the seeded noise stream are the same in both runs (the noise draws are scaled by each run's sigma), so the difference is paired by seed. sigma is the noise standard deviation of a release at sensitivity 1 (the noise multiplier), from each run's ledger; \"eps spent\" is the largest epsilon any seed's ledger reports under the run's own accountant.",
    '',
    `The other dataset's section: ${i.dataset === 'synthetic' ? '[REPRODUCTION-movielens.md](REPRODUCTION-movielens.md), "Same guarantee, exact accounting: MovieLens"' : '[REPRODUCTION.md](REPRODUCTION.md), "Same guarantee, exact accounting: synthetic"'}; the chart draws both.`,
    '',
    markdownTable(claimsTable(i.claims)),
    '',
    ...i.claims.map((c) =>
      claimMarkdown(
        c,
        (ch) =>
          ch === 'claim-exact-accounting' && i.chartPath !== null
            ? `![Exact - paper accounting: paired difference in mean reward by epsilon](${i.chartPath})\n`
            : '',
        3,
      ),
    ),
    `### ${table.title}\n`,
    markdownTable(table),
    '',
    `Verdicts: ${counts.join('; ')}.`,
    '',
    i.runLine,
    '',
  ];
  return out.join('\n');
}
