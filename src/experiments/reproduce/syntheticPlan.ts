/**
 * The experiments of the synthetic reproduction, as validated experiment configs (one per study).
 * Cells shared between studies (same policy, budget, parameters and seed) have the same cache key,
 * so with a cache directory they run once.
 */

import { policyIds, policyInfo } from '../../policies/index.js';
import { epsilonToRho, perRecordRho, zcdpToEpsilon } from '../../privacy/index.js';
import type { ExperimentConfig, ParamValue, PolicyGridEntry } from '../types.js';
import { validateExperimentConfig } from '../validateExperimentConfig.js';
import type { SyntheticScale } from './syntheticScale.js';

export interface SyntheticPlan {
  /** Every policy at its defaults (plus AdaPrivate-TS-Adaptive's tuned v0 setting), every budget. */
  readonly main: ExperimentConfig;
  /** Every policy over its tuning grid, every budget (best per method reported as such). */
  readonly tuning: ExperimentConfig;
  /** AdaPrivate-TS-Amp over q (q = 1: no subsampling) and LinTS, at the amplification budgets. */
  readonly amplification: ExperimentConfig;
  /** Batch size, TS scale and decay-grid sweeps of AdaPrivate-TS(-Adaptive) and LinTS at one budget. */
  readonly robustness: ExperimentConfig;
  /** AdaPrivate-TS at the per-record budgets of user-level privacy for each group size k, and LinTS. */
  readonly group: ExperimentConfig;
  /** The group-privacy budgets: k, per-record rho = rho_user / k^2 and its (eps, delta) equivalent. */
  readonly groupBudgets: readonly GroupBudget[];
}

export interface GroupBudget {
  readonly k: number;
  readonly userRho: number;
  readonly recordRho: number;
  /** The event-level epsilon (at the same delta) equivalent to `recordRho`. */
  readonly epsilon: number;
}

/** The non-private reference of every "% of non-private" figure: LinTS at its default v = 1. */
export const NON_PRIVATE_REFERENCE = 'lints';

function base(scale: SyntheticScale, name: string) {
  return {
    name,
    env: scale.env,
    protocol: 'full-information',
    delta: scale.delta,
    seeds: scale.seeds,
    horizon: scale.horizon,
    checkpoints: scale.checkpoints,
  };
}

function tuningEntry(
  scale: SyntheticScale,
  id: (typeof policyIds)[number],
): PolicyGridEntry | { policy: string; tune: true } {
  if (scale.tuningGrids === 'spec') return { policy: id, tune: true };
  const grid = scale.tuningGrids[id] ?? {};
  return { policy: id, params: grid as Record<string, readonly ParamValue[]> };
}

/**
 * Group-privacy budgets: user-level (epsilon, delta) -> rho_user -> per-record rho_user / k^2 ->
 * the per-record epsilon at the same delta (classic conversion).
 *
 * @example
 * groupBudgets(5, 1e-5, [5])[0].recordRho; // returns ~0.018
 */
export function groupBudgets(userEpsilon: number, delta: number, ks: readonly number[]): GroupBudget[] {
  const userRho = epsilonToRho(userEpsilon, delta);
  return ks.map((k) => {
    const recordRho = perRecordRho(userRho, k);
    return { k, userRho, recordRho, epsilon: zcdpToEpsilon(recordRho, delta) };
  });
}

/**
 * Builds the study configs for a scale.
 *
 * @example
 * syntheticPlan(syntheticScale('full')).main.seeds.length; // returns 12
 */
export function syntheticPlan(scale: SyntheticScale): SyntheticPlan {
  const main = validateExperimentConfig({
    ...base(scale, 'synthetic-main'),
    policies: [
      ...policyIds.map((id) => ({ policy: id })),
      { policy: 'adaprivate-ts-adaptive', params: { adaptiveSetting: ['tuned'] } },
    ],
    epsilons: scale.epsilons,
  });
  const tuning = validateExperimentConfig({
    ...base(scale, 'synthetic-tuning'),
    policies: policyIds.map((id) => tuningEntry(scale, id)),
    epsilons: scale.epsilons,
  });
  const amplification = validateExperimentConfig({
    ...base(scale, 'synthetic-amplification'),
    policies: [{ policy: 'adaprivate-ts-amp', params: { q: scale.ampQ } }, { policy: NON_PRIVATE_REFERENCE }],
    epsilons: scale.ampEpsilons,
  });
  const ts = policyInfo('adaprivate-ts').defaults;
  const ad = policyInfo('adaprivate-ts-adaptive').defaults;
  const robustness = validateExperimentConfig({
    ...base(scale, 'synthetic-robustness'),
    policies: [
      { policy: 'adaprivate-ts', params: { batchSize: scale.batchSizes, v: [ts.v] } },
      { policy: 'adaprivate-ts', params: { batchSize: [ts.batchSize], v: scale.vs } },
      {
        policy: 'adaprivate-ts-adaptive',
        params: { batchSize: [ad.batchSize], v0: scale.decayV0, gamma: scale.decayGamma },
      },
      { policy: NON_PRIVATE_REFERENCE },
    ],
    epsilons: [scale.robustnessEpsilon],
  });
  const budgets = groupBudgets(scale.groupEpsilon, scale.delta, scale.groupK);
  const group = validateExperimentConfig({
    ...base(scale, 'synthetic-group-privacy'),
    policies: [{ policy: 'adaprivate-ts' }, { policy: NON_PRIVATE_REFERENCE }],
    epsilons: budgets.map((b) => b.epsilon),
  });
  return { main, tuning, amplification, robustness, group, groupBudgets: budgets };
}
