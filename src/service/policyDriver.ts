/**
 * How the service drives a policy: decisions by `selectWithPropensity` + `discard` (a decision never
 * waits for its reward inside the policy), learning by `observe` (the reward arrives later, by event
 * id, with the chosen arm's features from the database). Both go through the policy's own clipping,
 * batching, noise and ledger. After the horizon of a horizon-bounded policy, decisions come from
 * `probabilities` (released statistics only, no round).
 */
import type { InversePropensity, Policy, PolicyId } from '../policies/index.js';
import { policyInfo } from '../policies/index.js';

/** What one decision returns. */
export interface DriverDecision {
  readonly arm: number;
  /** Probability of each arm (length k). */
  readonly probabilities: Float64Array;
  /** Monte Carlo draws behind `probabilities` (0: exact). */
  readonly samples: number;
  /** The unbiased inverse propensity of `arm` that the decision log carries. */
  readonly inversePropensity: InversePropensity;
}

/** A deterministic choice: probability 1. */
const EXACT: InversePropensity = Object.freeze({ kind: 'exact', value: 1, cap: null, capped: false });

/** Chooses one of `k` arms (features k x d, row-major) and returns every arm's probability. */
export function decide(policy: Policy, features: Float64Array, k: number, samples: number): DriverDecision {
  const r = policy.selectWithPropensity(features, k, { samples });
  policy.discard();
  return {
    arm: r.arm,
    probabilities: r.probabilities.probabilities,
    samples: r.probabilities.samples,
    inversePropensity: r.inversePropensity,
  };
}

/**
 * Decides without a round (a horizon-bounded policy past its horizon): the most probable arm under
 * the policy's probabilities (exact for the UCB-type policies that are bounded; ties to the lowest index).
 */
export function decideFrozen(
  policy: Policy,
  features: Float64Array,
  k: number,
  samples: number,
): DriverDecision {
  const r = policy.probabilities(features, k, { samples });
  let arm = 0;
  for (let a = 1; a < k; a++) if (r.probabilities[a]! > r.probabilities[arm]!) arm = a;
  // the most probable arm is a deterministic choice: its logged inverse propensity is exactly 1
  return { arm, probabilities: r.probabilities, samples: r.samples, inversePropensity: EXACT };
}

/**
 * Learns from one round whose arm (features `x`, d values) was chosen earlier, with `reward` in
 * [0, 1] and the event's privacy unit (a user-level policy applies its contribution bounds to it).
 */
export function observe(policy: Policy, x: Float64Array, reward: number, unit?: string | null): void {
  if (unit == null) policy.observe(x, reward);
  else policy.observe(x, reward, unit);
}

/** True when the policy's guarantee is calibrated for its horizon T (it must stop learning after T rounds). */
export function boundedByHorizon(id: PolicyId): boolean {
  return policyInfo(id).boundedByHorizon;
}
