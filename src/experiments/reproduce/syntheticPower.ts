/**
 * Power runs for the two comparisons the paper calls significant (TS vs UCB by eps; amplification
 * q = 0.3 vs none): the seeds needed for a 95% CI half-width below a target are estimated from the
 * main run's per-seed spread, then those comparisons alone are run on that many seeds, and each is
 * judged by the verdict rules so the document can say whether the paper's effect holds.
 */

import { summarise } from '../summarise.js';
import type { ExperimentConfig, ExperimentResult } from '../types.js';
import { validateExperimentConfig } from '../validateExperimentConfig.js';
import type { ClaimSpec, PartSpec } from './claims/ClaimSpec.js';
import { type Claim, evaluateClaim } from './claims/evaluateClaim.js';
import {
  findSetting,
  type SettingRef,
  type SummaryReading,
  summaryMeasurements,
} from './claims/summaryMeasurements.js';
import { compare } from './syntheticAnalysis.js';
import type { SyntheticScale } from './syntheticScale.js';
import { seedsForHalfWidth } from './verdict.js';

/** Target 95% CI half-width of a power comparison, in percentage points. */
export const POWER_HALF_WIDTH = 0.5;

/**
 * Half-width the seeds are planned for, below the target: the spread is itself estimated (from 12
 * seeds it is uncertain by about 20%), and planning for the target exactly gave half-widths of
 * 0.51-0.54 points on 55 and 234 seeds.
 */
export const POWER_PLAN_HALF_WIDTH = 0.45;

/** Most planning rounds of an automatic power run (the first plan, then re-plans from its own spread). */
export const POWER_MAX_STAGES = 3;

/** The comparisons of a power run: (label, a, b, paper range, paper text). */
interface PowerComparison {
  readonly label: string;
  readonly a: SettingRef;
  readonly b: SettingRef;
  readonly paper: readonly [number, number];
  readonly paperText: string;
  readonly claim: 'ts-vs-ucb' | 'amplification';
}

function comparisons(scale: SyntheticScale): PowerComparison[] {
  const out: PowerComparison[] = [];
  for (const e of scale.epsilons) {
    out.push({
      label: `eps = ${e}: TS vs UCB`,
      a: { from: 'main', policy: 'adaprivate-ts', eps: e },
      b: { from: 'main', policy: 'adaprivate-ucb', eps: e },
      paper: e === 1 ? [1.5, 1.5] : [0.5, 1.5],
      paperText: e === 1 ? '+1.5%' : '+0.5% to +1.5%',
      claim: 'ts-vs-ucb',
    });
  }
  for (const e of scale.ampEpsilons) {
    out.push({
      label: `eps = ${e}: amplification q = 0.3 vs none (q = 1)`,
      a: { from: 'main', policy: 'adaprivate-ts-amp', eps: e, q: 0.3 },
      b: { from: 'main', policy: 'adaprivate-ts-amp', eps: e, q: 1 },
      // the paper reports the gain on MovieLens only (+4.6% at eps = 1, +1.3% at eps = 5); we test
      // its direction and size on the synthetic study
      paper: e === 1 ? [4.6, 4.6] : [1.3, 1.3],
      paperText: e === 1 ? '+4.6% (MovieLens)' : '+1.3% (MovieLens)',
      claim: 'amplification',
    });
  }
  return out;
}

/**
 * Seeds needed so that every power comparison's 95% CI half-width is below `halfWidth`, from the
 * per-seed spread of those comparisons in earlier results (e.g. the 12-seed main and amplification
 * runs), with the estimate per comparison.
 *
 * @example
 * powerSeedsNeeded(scale, [main, amplification]).seeds.tsVsUcb; // returns e.g. 55
 */
export function powerSeedsNeeded(
  scale: SyntheticScale,
  results: readonly ExperimentResult[],
  halfWidth = POWER_HALF_WIDTH,
): {
  /** Seeds for the TS vs UCB comparisons and for the amplification ones (the largest need of each). */
  readonly seeds: { readonly tsVsUcb: number; readonly amplification: number };
  readonly perComparison: readonly { label: string; std: number; n: number }[];
} {
  const ss = results.flatMap((r) => summarise(r.cells));
  const per = comparisons(scale).map((c) => {
    const a = findSetting(ss, c.a.policy, c.a.eps, c.a.q);
    const b = findSetting(ss, c.b.policy, c.b.eps, c.b.q);
    if (a === undefined || b === undefined)
      return { label: c.label, claim: c.claim, std: Number.NaN, n: Number.NaN };
    const std = compare(a, b).gap.std;
    return { label: c.label, claim: c.claim, std, n: seedsForHalfWidth(std, halfWidth) };
  });
  const most = (which: PowerComparison['claim']) => {
    const ns = per.filter((p) => p.claim === which && Number.isFinite(p.n)).map((p) => p.n);
    return ns.length === 0 ? 2 : Math.max(...ns);
  };
  return {
    seeds: { tsVsUcb: most('ts-vs-ucb'), amplification: most('amplification') },
    perComparison: per.map(({ label, std, n }) => ({ label, std, n })),
  };
}

/**
 * The widest 95% CI half-width (percentage points) of each group of power comparisons in `results`
 * (NaN for a group with no comparison present).
 *
 * @example
 * powerHalfWidths(scale, [tsUcb, amp]); // returns e.g. { tsVsUcb: 0.45, amplification: 0.44 }
 */
export function powerHalfWidths(
  scale: SyntheticScale,
  results: readonly ExperimentResult[],
): { readonly tsVsUcb: number; readonly amplification: number } {
  const ss = results.flatMap((r) => summarise(r.cells));
  const widest = { 'ts-vs-ucb': Number.NaN, amplification: Number.NaN };
  for (const c of comparisons(scale)) {
    const a = findSetting(ss, c.a.policy, c.a.eps, c.a.q);
    const b = findSetting(ss, c.b.policy, c.b.eps, c.b.q);
    if (a === undefined || b === undefined) continue;
    const ci = compare(a, b).gap.ci95;
    const half = (ci[1] - ci[0]) / 2;
    widest[c.claim] = Number.isNaN(widest[c.claim]) ? half : Math.max(widest[c.claim], half);
  }
  return { tsVsUcb: widest['ts-vs-ucb'], amplification: widest.amplification };
}

/**
 * The power run's experiment: AdaPrivate-TS and AdaPrivate-UCB at every budget, and
 * AdaPrivate-TS-Amp with q = 0.3 and q = 1 at the amplification budgets, on seeds 1..`seeds`, with
 * the main run's environment, horizon and delta.
 *
 * @example
 * powerPlan(syntheticScale('full'), 52).seeds.length; // returns 52
 */
export function powerPlan(scale: SyntheticScale, seeds: number): ExperimentConfig {
  const s = Array.from({ length: seeds }, (_, i) => i + 1);
  const base = {
    env: scale.env,
    protocol: 'full-information',
    delta: scale.delta,
    seeds: s,
    horizon: scale.horizon,
    checkpoints: scale.checkpoints,
  };
  return validateExperimentConfig({
    ...base,
    name: 'synthetic-power',
    policies: [{ policy: 'adaprivate-ts' }, { policy: 'adaprivate-ucb' }],
    epsilons: scale.epsilons,
  });
}

/** The amplification half of the power run (its budgets differ from the TS vs UCB half). */
export function powerAmpPlan(scale: SyntheticScale, seeds: number): ExperimentConfig {
  const p = powerPlan(scale, seeds);
  return validateExperimentConfig({
    ...p,
    name: 'synthetic-power-amplification',
    policies: [{ policy: 'adaprivate-ts-amp', params: { q: [0.3, 1] } }],
    epsilons: scale.ampEpsilons,
  });
}

/** The power run's claims as data: each comparison scored by the effect rule on the power run's seeds. */
export function powerClaimSpecs(scale: SyntheticScale): ClaimSpec<SummaryReading>[] {
  const parts = (which: PowerComparison['claim']): PartSpec<SummaryReading>[] =>
    comparisons(scale)
      .filter((c) => c.claim === which)
      .map((c) => ({
        label: c.label,
        paper:
          c.paper[0] === c.paper[1]
            ? { kind: 'value', value: c.paper[0], text: c.paperText }
            : { kind: 'range', lo: c.paper[0], hi: c.paper[1], text: c.paperText },
        reads: { metric: 'gap', a: c.a, b: c.b, withSeeds: true },
        score: 'effect',
      }));
  return [
    {
      id: 'power-ts-vs-ucb',
      headline: 'eps = 5: TS vs UCB',
      short: 'TS vs UCB, power run',
      title: 'Power run: default TS vs default UCB, by eps',
      plain:
        'With enough seeds to measure the gap within half a percentage point: does private Thompson sampling beat private UCB?',
      paper: 'TS beats UCB by 0.5-1.5% (largest at eps = 1, +1.5%), significantly at eps in {0.5, 1, 2, 5}.',
      parts: parts('ts-vs-ucb'),
      charts: ['claim-ts-vs-ucb'],
      rule: [{ standard: 'effect' }],
    },
    {
      id: 'power-amplification',
      headline: 'eps = 1: amplification q = 0.3 vs none (q = 1)',
      short: 'amplification vs none, power run',
      title: 'Power run: amplification (q = 0.3) vs no subsampling',
      plain:
        'With enough seeds: does sampling 30% of each batch (with the noise recalibrated) earn more than using every reward?',
      paper: 'Amplification with q = 0.3 helps at low eps (MovieLens: +4.6% at eps = 1, +1.3% at eps = 5).',
      parts: parts('amplification'),
      charts: ['claim-amplification'],
      rule: [
        { standard: 'effect' },
        "The paper's figures are from MovieLens; on the synthetic study they are the reference for direction and size.",
      ],
    },
  ];
}

/**
 * The power claims: each comparison judged by the effect rule on the power run's seeds.
 *
 * @example
 * powerClaims(scale, [tsUcb, amp]).map((c) => c.verdict); // returns e.g. ['not reproduced', 'opposite']
 */
export function powerClaims(scale: SyntheticScale, results: readonly ExperimentResult[]): Claim[] {
  const ss = results.flatMap((r) => summarise(r.cells));
  const m = summaryMeasurements({ epsilons: [...scale.epsilons, ...scale.ampEpsilons], main: ss, amp: ss });
  return powerClaimSpecs(scale).map((spec) => evaluateClaim(spec, m));
}
