/**
 * The report tables of the synthetic reproduction (rendered to Markdown, HTML and CSV by the
 * report primitives), built from a {@link SyntheticAnalysis}.
 */
import { isPolicyId, policyIds, policyInfo } from '../../policies/index.js';
import {
  ciHalfWidth,
  formatMeanCi,
  formatNumber,
  formatPValue,
  formatSignedPercent,
} from '../report/format.js';
import { type RawCell, type ReportColumn, type ReportTable, reportTable } from '../report/ReportTable.js';
import type { SeedStats } from '../types.js';
import { type Cell, epsKey, type SyntheticAnalysis } from './syntheticAnalysis.js';

const right = (header: string): ReportColumn => ({ header, align: 'right' });

/** `0.712 ± 0.004 (96.5%)`: mean reward with CI half-width and percent of the non-private reference. */
function rewardCell(c: Cell): string {
  return `${formatMeanCi(c.summary.meanReward, 3)} (${formatNumber(c.percent, 1)}%)`;
}

/** `96.5 ± 1.2%`: percent of non-private with the per-seed CI half-width. */
function percentCell(c: Cell): string {
  const s = c.percentStats;
  return s === null
    ? `${formatNumber(c.percent, 1)}%`
    : `${formatNumber(s.mean, 1)} ± ${formatNumber(ciHalfWidth(s), 1)}%`;
}

/** `+1.2% [+0.4, +2.0]`: a relative gap with its 95% CI. */
export function gapText(g: SeedStats): string {
  return `${formatSignedPercent(g.mean / 100, 1)} [${formatSignedPercent(g.ci95[0] / 100, 1)}, ${formatSignedPercent(g.ci95[1] / 100, 1)}]`;
}

function seedsNote(a: SyntheticAnalysis): string {
  return `${a.seeds.length} seeds (${a.seeds.join(', ')}), T = ${a.scale.horizon}, d = ${a.scale.env.dim}, ${a.scale.env.arms} arms, ${a.scale.env.armsPerRound} per round, delta = ${a.scale.delta}`;
}

function privacyLabel(policy: string, isPrivate: boolean): string {
  if (!isPrivate) return 'none';
  return isPolicyId(policy) && policyInfo(policy).guarantee === 'joint' ? 'joint DP' : 'event-level zCDP';
}

/**
 * Main table, default settings: mean expected reward per round (± 95% CI half-width) and percent
 * of non-private LinTS, per method and budget.
 *
 * @example
 * mainDefaultTable(analysis).rows.length; // returns 12 (11 policies + the tuned adaptive setting)
 */
export function mainDefaultTable(a: SyntheticAnalysis): ReportTable {
  const rows: string[][] = [];
  const raw: RawCell[][] = [];
  for (const r of a.rows) {
    const byEps = a.main[r.id]!;
    rows.push([
      r.label,
      privacyLabel(r.policy, r.isPrivate),
      ...a.epsilons.map((e) => rewardCell(byEps[epsKey(e)]!)),
    ]);
    raw.push([
      r.id,
      privacyLabel(r.policy, r.isPrivate),
      ...a.epsilons.map((e) => byEps[epsKey(e)]!.summary.meanReward.mean),
    ]);
  }
  return reportTable({
    title: 'Main table, default settings: mean expected reward per round (% of non-private LinTS)',
    caption: `Mean over seeds ± half-width of the 95% Student-t confidence interval; in brackets the percentage of non-private LinTS (v = 1). Defaults: lambda = 1, v = 1, alpha = 1, B = 300, q = 0.3, v0 = 1.5, gamma = 0.95, cTrigger = 2. Non-private rows repeat the same runs under every epsilon. ${seedsNote(a)}.`,
    columns: [{ header: 'Method' }, { header: 'Privacy' }, ...a.epsilons.map((e) => right(`eps = ${e}`))],
    rows,
    raw,
  });
}

function paramsText(p: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(p).sort();
  return keys.length === 0 ? 'defaults' : keys.map((k) => `${k}=${String(p[k])}`).join(', ');
}

/**
 * Main table, tuned: the best setting of each method's grid per budget (the best is what is
 * reported, as in the paper), with the chosen parameters and the grid size.
 *
 * @example
 * mainTunedTable(analysis).columns[0].header; // returns 'Method'
 */
export function mainTunedTable(a: SyntheticAnalysis): ReportTable {
  const rows: string[][] = [];
  const raw: RawCell[][] = [];
  for (const id of policyIds) {
    const info = policyInfo(id);
    const byEps = a.tuned[id]!;
    const grid = byEps[epsKey(a.epsilons[0]!)]!.result.all.length;
    rows.push([
      info.displayName,
      String(grid),
      ...a.epsilons.map((e) => {
        const t = byEps[epsKey(e)]!;
        return `${rewardCell(t.best)}; ${paramsText(t.best.summary.params)}`;
      }),
    ]);
    raw.push([id, grid, ...a.epsilons.map((e) => byEps[epsKey(e)]!.best.summary.meanReward.mean)]);
  }
  return reportTable({
    title: 'Main table, tuned: best setting of each grid (% of non-private LinTS; chosen parameters)',
    caption: `For each method and budget, the setting of its tuning grid with the highest mean reward over the same seeds (selection on the evaluation seeds, as the paper did; every grid result is kept in tuning/results.json and tuning.csv). ${seedsNote(a)}.`,
    columns: [{ header: 'Method' }, right('grid size'), ...a.epsilons.map((e) => right(`eps = ${e}`))],
    rows,
    raw,
  });
}

/**
 * Every setting of every tuning grid (long format: one row per policy, budget and setting).
 *
 * @example
 * tuningGridTable(analysis).rows.length > 0; // returns true
 */
export function tuningGridTable(a: SyntheticAnalysis): ReportTable {
  const rows: string[][] = [];
  const raw: RawCell[][] = [];
  for (const id of policyIds) {
    for (const e of a.epsilons) {
      const t = a.tuned[id]![epsKey(e)]!.result;
      t.all.forEach((s, rank) => {
        const m = s.meanReward;
        rows.push([
          policyInfo(id).displayName,
          t.epsilon === null ? 'none' : String(t.epsilon),
          paramsText(s.params),
          String(rank + 1),
          formatMeanCi(m, 4),
        ]);
        raw.push([id, t.epsilon, paramsText(s.params), rank + 1, m.mean]);
      });
    }
  }
  return reportTable({
    title: 'Tuning grids: every setting',
    columns: [{ header: 'Method' }, right('eps'), { header: 'setting' }, right('rank'), right('mean reward')],
    rows,
    raw,
  });
}

/**
 * TS vs UCB: default AdaPrivate-TS against default AdaPrivate-UCB, and the tuned-v0
 * AdaPrivate-TS-Adaptive against default AdaPrivate-UCB, per budget: relative gap with 95% CI and
 * the paired t-test on common seeds.
 *
 * @example
 * tsVsUcbTable(analysis).columns.length; // returns 7
 */
export function tsVsUcbTable(a: SyntheticAnalysis): ReportTable {
  const rows: string[][] = [];
  const raw: RawCell[][] = [];
  for (const e of a.epsilons) {
    const k = epsKey(e);
    const c = a.tsVsUcb[k]!;
    const d = a.adaptiveTunedVsUcb[k]!;
    rows.push([
      String(e),
      gapText(c.gap),
      formatNumber(c.test.t, 2),
      formatPValue(c.test.pValue),
      gapText(d.gap),
      formatNumber(d.test.t, 2),
      formatPValue(d.test.pValue),
    ]);
    raw.push([e, c.gap.mean, c.test.t, c.test.pValue, d.gap.mean, d.test.t, d.test.pValue]);
  }
  return reportTable({
    title: 'TS vs UCB: relative gap in mean reward (95% CI) and paired t-tests',
    caption: `Gap = 100 (TS / UCB - 1) per seed, mean and 95% CI over seeds; t and two-sided p from a paired t-test of the per-seed mean rewards (common seeds). Left: default AdaPrivate-TS (v = 1) vs default AdaPrivate-UCB (alpha = 1), same B = 300 and sigma. Right: AdaPrivate-TS-Adaptive with tuned v0 = 1 + sigma/(d sqrt(lambda_0)), gamma = 0.95, vs default AdaPrivate-UCB. ${seedsNote(a)}.`,
    columns: [
      right('eps'),
      right('TS vs UCB'),
      right('t'),
      right('p'),
      right('TS-Adaptive (tuned) vs UCB'),
      right('t'),
      right('p'),
    ],
    rows,
    raw,
  });
}

/**
 * Ablation: the components added one at a time (default settings), percent of non-private LinTS
 * and the gain of each step over the step it builds on, per budget; last row the total of gains.
 *
 * @example
 * ablationTable(analysis).rows.length; // returns 5 (4 steps and the total)
 */
export function ablationTable(a: SyntheticAnalysis): ReportTable {
  const rows: string[][] = [];
  const raw: RawCell[][] = [];
  for (const st of a.ablationSteps) {
    rows.push([
      st.label,
      ...a.epsilons.map((e) => {
        const k = epsKey(e);
        const c = a.main[st.rowId]![k]!;
        if (st.parent < 0) return `${formatNumber(c.percent, 1)}%`;
        const parent = a.main[a.ablationSteps[st.parent]!.rowId]![k]!;
        const base = a.main[a.ablationSteps[0]!.rowId]![k]!;
        const gain =
          (100 * (c.summary.meanReward.mean - parent.summary.meanReward.mean)) / base.summary.meanReward.mean;
        return `${formatNumber(c.percent, 1)}% (${formatSignedPercent(gain / 100, 1)})`;
      }),
    ]);
    raw.push([st.rowId, ...a.epsilons.map((e) => a.main[st.rowId]![epsKey(e)]!.percent)]);
  }
  rows.push(['Total of component gains', ...a.epsilons.map((e) => gapText(a.ablationTotal[epsKey(e)]!))]);
  raw.push(['total', ...a.epsilons.map((e) => a.ablationTotal[epsKey(e)]!.mean)]);
  return reportTable({
    title: 'Ablation: components added one at a time (% of non-private LinTS; gain over the previous step)',
    caption: `Each step's gain is 100 (R_step - R_parent) / R_baseline; the total adds the gains of the Thompson-sampling, decay and amplification steps (per seed, 95% CI). Steps 2 and 3 both build on step 1 because no policy combines decay and amplification. Default settings from the main table. ${seedsNote(a)}.`,
    columns: [{ header: 'Step' }, ...a.epsilons.map((e) => right(`eps = ${e}`))],
    rows,
    raw,
  });
}

/**
 * Amplification sweep: AdaPrivate-TS-Amp for each q (q = 1: no subsampling) and budget: reward
 * with CI, percent of non-private, and the standard deviation over seeds of that percentage.
 *
 * @example
 * amplificationTable(analysis).rows.length; // returns the number of q values
 */
export function amplificationTable(a: SyntheticAnalysis): ReportTable {
  const epsKeys = Object.keys(a.amplification);
  const rows: string[][] = [];
  const raw: RawCell[][] = [];
  for (const q of a.scale.ampQ) {
    const cells = epsKeys.map((k) => a.amplification[k]![String(q)]!);
    rows.push([
      q === 1 ? '1 (no subsampling)' : String(q),
      ...cells.map((c) => `${rewardCell(c)}, sd ${formatNumber(c.percentStats?.std ?? Number.NaN, 1)}%`),
    ]);
    raw.push([q, ...cells.map((c) => c.percent)]);
  }
  return reportTable({
    title: 'Amplification: AdaPrivate-TS-Amp by subsampling rate q (% of non-private LinTS, sd over seeds)',
    caption: `sigma_amp calibrated by the RDP accountant (extended order grid, classic conversion) to the same (eps, delta); q = 1 is the zCDP-calibrated release without subsampling (identical to AdaPrivate-TS). sd: standard deviation over seeds of the per-seed percentage. v = 1, B = 300. ${seedsNote(a)}.`,
    columns: [right('q'), ...epsKeys.map((k) => right(`eps = ${k}`))],
    rows,
    raw,
  });
}

/**
 * Robustness at the robustness budget: batch size B, TS scale v and the decay grid (v0, gamma),
 * each as percent of non-private LinTS with the per-seed 95% CI.
 *
 * @example
 * robustnessTables(analysis).length; // returns 3
 */
export function robustnessTables(a: SyntheticAnalysis): ReportTable[] {
  const eps = a.scale.robustnessEpsilon;
  const note = `Percent of non-private LinTS, mean ± 95% CI half-width of the per-seed percentage. eps = ${eps}. ${seedsNote(a)}.`;
  const bTable = reportTable({
    title: `Robustness: batch size B (AdaPrivate-TS, v = 1, eps = ${eps})`,
    caption: note,
    columns: [right('B'), right('% of non-private')],
    rows: a.scale.batchSizes.map((b) => [String(b), percentCell(a.robustnessB[String(b)]!)]),
    raw: a.scale.batchSizes.map((b) => [b, a.robustnessB[String(b)]!.percent]),
  });
  const vTable = reportTable({
    title: `Robustness: TS scale v (AdaPrivate-TS, B = 300, eps = ${eps})`,
    caption: note,
    columns: [right('v'), right('% of non-private')],
    rows: a.scale.vs.map((v) => [String(v), percentCell(a.robustnessV[String(v)]!)]),
    raw: a.scale.vs.map((v) => [v, a.robustnessV[String(v)]!.percent]),
  });
  const decayTable = reportTable({
    title: `Robustness: adaptive decay grid (AdaPrivate-TS-Adaptive, B = 300, eps = ${eps})`,
    caption: note,
    columns: [right('v0'), ...a.scale.decayGamma.map((g) => right(`gamma = ${g}`))],
    rows: a.scale.decayV0.map((v0) => [
      String(v0),
      ...a.scale.decayGamma.map((g) => percentCell(a.robustnessDecay[`${v0}|${g}`]!)),
    ]),
    raw: a.scale.decayV0.map((v0) => [
      v0,
      ...a.scale.decayGamma.map((g) => a.robustnessDecay[`${v0}|${g}`]!.percent),
    ]),
  });
  return [bTable, vTable, decayTable];
}

/**
 * Group privacy: protecting k records of one user at user-level (eps, delta) leaves rho / k^2 per
 * record; AdaPrivate-TS run at that per-record budget, percent of non-private LinTS.
 *
 * @example
 * groupTable(analysis).rows[0][0]; // returns '1'
 */
export function groupTable(a: SyntheticAnalysis): ReportTable {
  return reportTable({
    title: `Group privacy: user-level eps = ${a.scale.groupEpsilon}, delta = ${a.scale.delta} (AdaPrivate-TS)`,
    caption: `rho_user from the user-level budget (classic conversion); per-record rho = rho_user / k^2 (zCDP group privacy); AdaPrivate-TS run at the per-record (eps, delta) equivalent of that rho. Default settings. ${seedsNote(a)}.`,
    columns: [
      right('k'),
      right('rho (user)'),
      right('rho per record'),
      right('eps per record'),
      right('mean reward'),
      right('% of non-private'),
    ],
    rows: a.group.map(({ budget, cell }) => [
      String(budget.k),
      formatNumber(budget.userRho, 4),
      formatNumber(budget.recordRho, 5),
      formatNumber(budget.epsilon, 4),
      formatMeanCi(cell.summary.meanReward, 3),
      percentCell(cell),
    ]),
    raw: a.group.map(({ budget, cell }) => [
      budget.k,
      budget.userRho,
      budget.recordRho,
      budget.epsilon,
      cell.summary.meanReward.mean,
      cell.percent,
    ]),
  });
}
