/**
 * How the service drives a policy: decisions by `selectWithInversePropensity` (or, when the display
 * probabilities are asked for, `selectWithPropensity`) + `discard` (a decision never waits for its
 * reward inside the policy), learning by `observe` (the reward arrives later, by event
 * id, with the chosen arm's features from the database). Both go through the policy's own clipping,
 * batching, noise and ledger. After the horizon of a horizon-bounded policy, decisions come from
 * `probabilities` (released statistics only, no round).
 */
import type { InversePropensity, Policy, PolicyId } from '../policies/index.js';
import { policyInfo } from '../policies/index.js';

/** What one decision returns. */
export interface DriverDecision {
  readonly arm: number;
  /** Probability of each arm (length k); null when the decision was asked without them. */
  readonly probabilities: Float64Array | null;
  /** Monte Carlo draws behind `probabilities` (0: exact; 0 too when there are none). */
  readonly samples: number;
  /** The unbiased inverse propensity of `arm` that the decision log carries. */
  readonly inversePropensity: InversePropensity;
}

/** A deterministic choice: probability 1. */
const EXACT: InversePropensity = Object.freeze({ kind: 'exact', value: 1, cap: null, capped: false });

/**
 * Draws of the probabilities for a frozen decision asked without them (it needs them to choose;
 * the horizon-bounded policies are UCB-type, whose probabilities are exact and take no draw).
 */
const FROZEN_SAMPLES = 200;

/**
 * Chooses one of `k` arms (features k x d, row-major). With `samples` (a number), also every arm's
 * probability (`selectWithPropensity`: a Monte Carlo of `samples` draws for Thompson sampling);
 * null: without them (`selectWithInversePropensity`: the same arm and logged inverse propensity,
 * about K redraws instead of `samples`).
 */
export function decide(
  policy: Policy,
  features: Float64Array,
  k: number,
  samples: number | null,
): DriverDecision {
  if (samples === null) {
    const r = policy.selectWithInversePropensity(features, k);
    policy.discard();
    return { arm: r.arm, probabilities: null, samples: 0, inversePropensity: r.inversePropensity };
  }
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
 * the policy's probabilities (exact for the UCB-type policies that are bounded; ties to the lowest
 * index). They are answered only when asked for (`samples` a number).
 */
export function decideFrozen(
  policy: Policy,
  features: Float64Array,
  k: number,
  samples: number | null,
): DriverDecision {
  const r = policy.probabilities(features, k, { samples: samples ?? FROZEN_SAMPLES });
  let arm = 0;
  for (let a = 1; a < k; a++) if (r.probabilities[a]! > r.probabilities[arm]!) arm = a;
  // the most probable arm is a deterministic choice: its logged inverse propensity is exactly 1
  return {
    arm,
    probabilities: samples === null ? null : r.probabilities,
    samples: samples === null ? 0 : r.samples,
    inversePropensity: EXACT,
  };
}

/**
 * The Monte Carlo draws of a rank's display probabilities, or null when the rank goes without them:
 * computed when the request asks (`withProbabilities: true`; the model's `probabilitySamples`, else
 * {@link DEFAULT_DISPLAY_SAMPLES}) or when the model was created with an explicit
 * `probabilitySamples` (models stored before it became optional all have one: they keep answering
 * them). `withProbabilities: false` never turns them off for such a model.
 */
export function displaySamples(
  settings: { readonly probabilitySamples: number | null },
  withProbabilities: boolean | undefined,
): number | null {
  if (settings.probabilitySamples !== null) return settings.probabilitySamples;
  return withProbabilities === true ? DEFAULT_DISPLAY_SAMPLES : null;
}

/** Draws of the display probabilities asked by a rank of a model without `probabilitySamples`. */
export const DEFAULT_DISPLAY_SAMPLES = 200;

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
