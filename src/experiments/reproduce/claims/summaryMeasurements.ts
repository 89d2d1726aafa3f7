/**
 * Reads the quantities of claims that compare setting summaries directly (the real-data claims and
 * the power runs): a policy's CTR, the relative gap between two settings, the best private method.
 */
import { isPolicyId, policyIds, policyInfo } from '../../../policies/index.js';
import { formatNumber } from '../../report/format.js';
import type { SettingSummary } from '../../types.js';
import { compare } from '../syntheticAnalysis.js';
import { gapText } from '../syntheticTables.js';
import type { Measured, Measurements } from './ClaimSpec.js';
import { est } from './syntheticMeasurements.js';

/** The summaries of a run: every policy at its defaults (`main`) and the amplification sweep (`amp`). */
export interface SummarySets {
  readonly epsilons: readonly number[];
  readonly main: readonly SettingSummary[];
  readonly amp: readonly SettingSummary[];
  /**
   * Real data: the CTR (a fraction) reached without learning from the protected rewards (the
   * greedy choice of the warm-start prior, or a uniformly random choice on a cold start): the
   * null of the level rule. Absent: unknown (a level is then never 'reproduced').
   */
  readonly levelNull?: number;
}

/** One setting of a run: a policy at a budget (optionally with amplification rate q), in `main` or `amp`. */
export interface SettingRef {
  readonly from: 'main' | 'amp';
  readonly policy: string;
  readonly eps: number;
  readonly q?: number;
}

/** A quantity of a run's summaries. */
export type SummaryReading =
  /** Mean CTR in percent (per-seed 95% CI). */
  | { readonly metric: 'ctr'; readonly policy: string; readonly eps: number }
  /** Relative gap a / b - 1 in percent, per seed; `withSeeds` adds the seeds and CI half-width to the text. */
  | { readonly metric: 'gap'; readonly a: SettingRef; readonly b: SettingRef; readonly withSeeds?: boolean }
  /** The private method (event-level or joint DP, at its defaults) with the highest mean reward. */
  | { readonly metric: 'best-private'; readonly eps: number };

/**
 * The summary of `policy` at budget `eps` (a non-private policy matches every budget), optionally
 * with amplification rate `q`.
 *
 * @example
 * findSetting(summaries, 'adaprivate-ts-amp', 1, 0.3)?.meanReward.mean; // returns e.g. 0.58
 */
export function findSetting(
  ss: readonly SettingSummary[],
  policy: string,
  eps: number,
  q?: number,
): SettingSummary | undefined {
  return ss.find(
    (s) =>
      s.policy === policy &&
      (s.epsilon === eps || s.epsilon === null) &&
      (q === undefined || s.params.q === q),
  );
}

/** Event-level private methods: every private policy except the joint-DP one. */
export function eventLevelPolicies(): string[] {
  return policyIds.filter((p) => policyInfo(p).isPrivate && p !== 'jdp-linucb');
}

/** Display name of a policy id. */
export const policyName = (id: string): string => (isPolicyId(id) ? policyInfo(id).displayName : id);

/**
 * The measurements of a run's summaries for the claim evaluator.
 *
 * @example
 * summaryMeasurements(run).measure({ metric: 'ctr', policy: 'adaprivate-ts', eps: 1 })?.text; // returns e.g. '71.9 [71.5, 72.3]'
 */
export function summaryMeasurements(r: SummarySets): Measurements<SummaryReading> {
  const find = (s: SettingRef) => findSetting(s.from === 'main' ? r.main : r.amp, s.policy, s.eps, s.q);
  return {
    measure(x: SummaryReading): Measured | undefined {
      switch (x.metric) {
        case 'ctr': {
          const s = findSetting(r.main, x.policy, x.eps);
          if (s === undefined) return { kind: 'missing', text: 'not in this run' };
          const m = s.meanReward;
          return {
            kind: 'estimate',
            estimate: { mean: 100 * m.mean, lo: 100 * m.ci95[0], hi: 100 * m.ci95[1] },
            text: `${formatNumber(100 * m.mean, 1)} [${formatNumber(100 * m.ci95[0], 1)}, ${formatNumber(100 * m.ci95[1], 1)}]`,
            detectable: false,
            ...(r.levelNull === undefined ? {} : { nullValue: 100 * r.levelNull }),
          };
        }
        case 'gap': {
          const a = find(x.a);
          const b = find(x.b);
          if (a === undefined || b === undefined) return { kind: 'missing', text: 'not in this run' };
          const g = compare(a, b).gap;
          const half = (g.ci95[1] - g.ci95[0]) / 2;
          return {
            kind: 'estimate',
            estimate: est(g),
            text: x.withSeeds
              ? `${gapText(g)}, ${g.n} seeds (half-width ${formatNumber(half, 2)} points)`
              : gapText(g),
            detectable: true,
          };
        }
        case 'best-private': {
          if (!r.epsilons.includes(x.eps)) return undefined;
          const rows = eventLevelPolicies()
            .concat('jdp-linucb')
            .map((p) => findSetting(r.main, p, x.eps))
            .filter((s): s is SettingSummary => s !== undefined);
          const ts = rows.find((s) => s.policy === 'adaprivate-ts');
          if (ts === undefined || rows.length < 2) return { kind: 'missing', text: 'not in this run' };
          const top = rows.reduce((a, b) => (b.meanReward.mean > a.meanReward.mean ? b : a));
          return {
            kind: 'choice',
            chosen: top.policy,
            candidates: rows.map((s) => s.policy),
            close: [],
            text: `${policyName(top.policy)} (${formatNumber(top.meanReward.mean, 4)}; TS ${formatNumber(ts.meanReward.mean, 4)})`,
          };
        }
      }
    },
  };
}
