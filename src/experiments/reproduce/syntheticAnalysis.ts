/**
 * The numbers of the synthetic reproduction, computed once from the study results: the main table
 * (default and tuned), TS vs UCB tests, amplification, ablation, robustness and group privacy.
 * Tables, charts, claims and the Markdown document all read this one object.
 */

import { policyIds, policyInfo } from '../../policies/index.js';
import { pairedTTest } from '../pairedTTest.js';
import { percentOf } from '../percentOf.js';
import { seedStats } from '../seedStats.js';
import { summarise } from '../summarise.js';
import { tune } from '../tune.js';
import type {
  ExperimentResult,
  PairedTTest,
  ParamValue,
  SeedStats,
  SettingSummary,
  TuningResult,
} from '../types.js';
import { type GroupBudget, NON_PRIVATE_REFERENCE, type SyntheticPlan } from './syntheticPlan.js';
import type { SyntheticScale } from './syntheticScale.js';

/** The raw results of every study. */
export interface SyntheticResults {
  readonly main: ExperimentResult;
  readonly tuning: ExperimentResult;
  readonly amplification: ExperimentResult;
  readonly robustness: ExperimentResult;
  readonly group: ExperimentResult;
}

/** A method row of the main table: a policy at its defaults, or a named configuration of it. */
export interface MethodRow {
  /** Row id: the policy id, or `policy:variant` for a named configuration. */
  readonly id: string;
  readonly label: string;
  readonly policy: string;
  readonly isPrivate: boolean;
  /** Parameters of the main-table setting (`{}` = defaults). */
  readonly params: Readonly<Record<string, ParamValue>>;
}

/** Mean reward over seeds and, when a reference exists, the ratio to it in percent (per-seed CI). */
export interface Cell {
  readonly summary: SettingSummary;
  /** 100 * mean / mean(reference), the paper's "% of X". */
  readonly percent: number;
  /** Per-seed percentages (mean, std, 95% CI), or null. */
  readonly percentStats: SeedStats | null;
}

/** A comparison of two methods on common seeds. */
export interface Comparison {
  /** Relative gap 100 * (a / b - 1), per seed: mean and 95% CI. */
  readonly gap: SeedStats;
  readonly test: PairedTTest;
}

export interface AblationStep {
  readonly label: string;
  readonly rowId: string;
  /** Index of the step this one adds a component to (-1 for the baseline). */
  readonly parent: number;
}

export interface SyntheticAnalysis {
  readonly scale: SyntheticScale;
  readonly rows: readonly MethodRow[];
  readonly epsilons: readonly number[];
  /** main[rowId][eps] (non-private rows: the same cell under every eps). Percent of LinTS. */
  readonly main: Readonly<Record<string, Readonly<Record<string, Cell>>>>;
  /** tuned[policy][eps]: the best grid setting (percent of the default LinTS) and the whole grid. */
  readonly tuned: Readonly<Record<string, Readonly<Record<string, { best: Cell; result: TuningResult }>>>>;
  /** TS vs UCB (defaults) per eps, and tuned-setting TS-Adaptive vs default UCB per eps. */
  readonly tsVsUcb: Readonly<Record<string, Comparison>>;
  readonly adaptiveTunedVsUcb: Readonly<Record<string, Comparison>>;
  readonly ablationSteps: readonly AblationStep[];
  /** Total of the component gains (percent of the baseline), per eps. */
  readonly ablationTotal: Readonly<Record<string, SeedStats>>;
  /** amplification[eps][q]: percent of LinTS. */
  readonly amplification: Readonly<Record<string, Readonly<Record<string, Cell>>>>;
  readonly robustnessB: Readonly<Record<string, Cell>>;
  readonly robustnessV: Readonly<Record<string, Cell>>;
  /** decay[`${v0}|${gamma}`]. */
  readonly robustnessDecay: Readonly<Record<string, Cell>>;
  readonly group: readonly { readonly budget: GroupBudget; readonly cell: Cell }[];
  readonly nonPrivate: SettingSummary;
  readonly seeds: readonly number[];
}

/** Key of an epsilon in the records above. */
export function epsKey(eps: number | null): string {
  return eps === null ? 'none' : String(eps);
}

function sameParams(
  a: Readonly<Record<string, ParamValue>>,
  b: Readonly<Record<string, ParamValue>>,
): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

function find(
  summaries: readonly SettingSummary[],
  policy: string,
  eps: number | null,
  params: Readonly<Record<string, ParamValue>>,
  what: string,
): SettingSummary {
  const s = summaries.find((x) => x.policy === policy && x.epsilon === eps && sameParams(x.params, params));
  if (s === undefined) {
    throw new Error(
      `synthetic analysis: no result for ${what}: ${policy} eps=${eps} params=${JSON.stringify(params)}.`,
    );
  }
  return s;
}

function cellOf(summary: SettingSummary, reference: SettingSummary): Cell {
  const p = percentOf(summary, reference);
  return { summary, percent: p.percent, percentStats: p.perSeed };
}

/**
 * Per-seed relative gap 100 * (a_s / b_s - 1) with its 95% CI, and the paired t-test of a - b.
 *
 * @example
 * compare(tsSummary, ucbSummary).gap.mean; // returns e.g. 1.2 (TS 1.2% above UCB)
 */
export function compare(a: SettingSummary, b: SettingSummary): Comparison {
  const p = percentOf(a, b).perSeed;
  if (p === null) throw new Error(`compare: ${a.setting} and ${b.setting} have no common seeds.`);
  const gap = seedStats(
    p.perSeed.map((x) => x - 100),
    p.seeds,
  );
  return { gap, test: pairedTTest(a.meanReward, b.meanReward) };
}

/** The method rows of the main table: every policy at its defaults, then TS-Adaptive's tuned v0 setting. */
export function methodRows(): MethodRow[] {
  const rows: MethodRow[] = policyIds.map((id) => {
    const info = policyInfo(id);
    return { id, label: info.displayName, policy: id, isPrivate: info.isPrivate, params: {} };
  });
  rows.push({
    id: 'adaprivate-ts-adaptive:tuned',
    label: 'AdaPrivate-TS-Adaptive (tuned v0)',
    policy: 'adaprivate-ts-adaptive',
    isPrivate: true,
    params: { adaptiveSetting: 'tuned' },
  });
  return rows;
}

/**
 * The ablation, read from the main table (default settings): each step adds one component.
 * 0 AdaPrivate-UCB (batched noisy statistics, UCB); 1 + Thompson sampling (AdaPrivate-TS);
 * 2 + adaptive exploration decay (AdaPrivate-TS-Adaptive, v0 = 1.5, gamma = 0.95), on step 1;
 * 3 + Poisson amplification (AdaPrivate-TS-Amp, q = 0.3), on step 1: the library has no policy
 * combining decay and amplification, so steps 2 and 3 both build on step 1 and their gains add.
 */
export const ABLATION_STEPS: readonly AblationStep[] = [
  { label: 'Batched private UCB (AdaPrivate-UCB)', rowId: 'adaprivate-ucb', parent: -1 },
  { label: '+ Thompson sampling (AdaPrivate-TS)', rowId: 'adaprivate-ts', parent: 0 },
  {
    label: '+ adaptive decay (AdaPrivate-TS-Adaptive), on step 1',
    rowId: 'adaprivate-ts-adaptive',
    parent: 1,
  },
  { label: '+ amplification q = 0.3 (AdaPrivate-TS-Amp), on step 1', rowId: 'adaprivate-ts-amp', parent: 1 },
];

/**
 * Computes every figure of the reproduction from the study results.
 *
 * @example
 * analyseSynthetic(scale, plan, results).tsVsUcb['1'].test.pValue; // returns e.g. 0.003
 */
export function analyseSynthetic(
  scale: SyntheticScale,
  plan: SyntheticPlan,
  results: SyntheticResults,
): SyntheticAnalysis {
  const mainS = summarise(results.main.cells);
  const tuningS = summarise(results.tuning.cells);
  const ampS = summarise(results.amplification.cells);
  const robS = summarise(results.robustness.cells);
  const groupS = summarise(results.group.cells);
  const nonPrivate = find(mainS, NON_PRIVATE_REFERENCE, null, {}, 'the non-private reference');
  const rows = methodRows();
  const epsilons = plan.main.epsilons;

  const main: Record<string, Record<string, Cell>> = {};
  for (const r of rows) {
    const byEps: Record<string, Cell> = {};
    for (const eps of epsilons) {
      const s = find(mainS, r.policy, r.isPrivate ? eps : null, r.params, 'the main table');
      byEps[epsKey(eps)] = cellOf(s, nonPrivate);
    }
    main[r.id] = byEps;
  }

  const tunedList = tune(tuningS);
  const tuned: Record<string, Record<string, { best: Cell; result: TuningResult }>> = {};
  for (const id of policyIds) {
    const byEps: Record<string, { best: Cell; result: TuningResult }> = {};
    const isPrivate = policyInfo(id).isPrivate;
    for (const eps of epsilons) {
      const t = tunedList.find((x) => x.policy === id && x.epsilon === (isPrivate ? eps : null));
      if (t === undefined) throw new Error(`synthetic analysis: no tuning result for ${id} eps=${eps}.`);
      byEps[epsKey(eps)] = { best: cellOf(t.best, nonPrivate), result: t };
    }
    tuned[id] = byEps;
  }

  const tsVsUcb: Record<string, Comparison> = {};
  const adaptiveTunedVsUcb: Record<string, Comparison> = {};
  const ablationTotal: Record<string, SeedStats> = {};
  for (const eps of epsilons) {
    const k = epsKey(eps);
    const ucb = main['adaprivate-ucb']![k]!.summary;
    tsVsUcb[k] = compare(main['adaprivate-ts']![k]!.summary, ucb);
    adaptiveTunedVsUcb[k] = compare(main['adaprivate-ts-adaptive:tuned']![k]!.summary, ucb);
    // total of component gains, per seed, relative to the baseline
    const seeds = ucb.meanReward.seeds;
    const totals = seeds.map((_, i) => {
      const r = (rowId: string) => main[rowId]![k]!.summary.meanReward.perSeed[i]!;
      const baseR = r(ABLATION_STEPS[0]!.rowId);
      let sum = 0;
      for (const st of ABLATION_STEPS) {
        if (st.parent < 0) continue;
        sum += r(st.rowId) - r(ABLATION_STEPS[st.parent]!.rowId);
      }
      return (100 * sum) / baseR;
    });
    ablationTotal[k] = seedStats(totals, seeds);
  }

  const ampNp = find(ampS, NON_PRIVATE_REFERENCE, null, {}, 'the amplification reference');
  const amplification: Record<string, Record<string, Cell>> = {};
  for (const eps of plan.amplification.epsilons) {
    const byQ: Record<string, Cell> = {};
    for (const q of scale.ampQ)
      byQ[String(q)] = cellOf(find(ampS, 'adaprivate-ts-amp', eps, { q }, 'amplification'), ampNp);
    amplification[epsKey(eps)] = byQ;
  }

  const robNp = find(robS, NON_PRIVATE_REFERENCE, null, {}, 'the robustness reference');
  const re = scale.robustnessEpsilon;
  const ts = policyInfo('adaprivate-ts').defaults;
  const ad = policyInfo('adaprivate-ts-adaptive').defaults;
  const robustnessB: Record<string, Cell> = {};
  for (const b of scale.batchSizes) {
    robustnessB[String(b)] = cellOf(
      find(robS, 'adaprivate-ts', re, { batchSize: b, v: ts.v as number }, 'B sweep'),
      robNp,
    );
  }
  const robustnessV: Record<string, Cell> = {};
  for (const v of scale.vs) {
    robustnessV[String(v)] = cellOf(
      find(robS, 'adaprivate-ts', re, { batchSize: ts.batchSize as number, v }, 'v sweep'),
      robNp,
    );
  }
  const robustnessDecay: Record<string, Cell> = {};
  for (const v0 of scale.decayV0) {
    for (const gamma of scale.decayGamma) {
      robustnessDecay[`${v0}|${gamma}`] = cellOf(
        find(
          robS,
          'adaprivate-ts-adaptive',
          re,
          { batchSize: ad.batchSize as number, gamma, v0 },
          'decay grid',
        ),
        robNp,
      );
    }
  }

  const groupNp = find(groupS, NON_PRIVATE_REFERENCE, null, {}, 'the group-privacy reference');
  const group = plan.groupBudgets.map((budget) => ({
    budget,
    cell: cellOf(find(groupS, 'adaprivate-ts', budget.epsilon, {}, 'group privacy'), groupNp),
  }));

  return {
    scale,
    rows,
    epsilons,
    main,
    tuned,
    tsVsUcb,
    adaptiveTunedVsUcb,
    ablationSteps: ABLATION_STEPS,
    ablationTotal,
    amplification,
    robustnessB,
    robustnessV,
    robustnessDecay,
    group,
    nonPrivate,
    seeds: plan.main.seeds,
  };
}
