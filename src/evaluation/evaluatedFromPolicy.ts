/**
 * A library policy as an {@link EvaluatedPolicy}: its action distribution comes from
 * `policy.probabilities(features, k, { samples })` (exact one-hot for UCB-type policies; a Monte
 * Carlo estimate over the policy's own scratch stream for Thompson sampling, which is unbiased for
 * the true probabilities, so IPW and DR stay unbiased; the privacy noise is already in the released
 * statistics it scores with), and it learns logged rounds through `policy.observe` (same batching,
 * noise and ledger as `update`, so `policy.privacy()` afterwards is what evaluating it released).
 */
import type { Policy } from '../policies/index.js';
import type { EvaluatedPolicy } from './EvaluatedPolicy.js';

export interface EvaluatedFromPolicyOptions {
  /** Monte Carlo draws per round for Thompson-sampling policies; positive integer, default 500. */
  readonly samples?: number;
}

/** Default Monte Carlo draws per round (binomial standard error <= 0.023 per probability). */
export const DEFAULT_EVALUATION_SAMPLES = 500;

/**
 * @example
 * const evaluated = evaluatedFromPolicy(createPolicy('adaprivate-ts', { dim: 20, horizon: 5000, seed: 1, epsilon: 1 }));
 * // evaluated.distribution(x, 5, out) fills out with 5 probabilities summing to 1
 */
export function evaluatedFromPolicy(
  policy: Policy,
  options: EvaluatedFromPolicyOptions = {},
): EvaluatedPolicy {
  const opts = { samples: options.samples ?? DEFAULT_EVALUATION_SAMPLES };
  return {
    distribution: (features, k, out) => {
      out.set(policy.probabilities(features, k, opts).probabilities.subarray(0, k));
    },
    learn: (chosen, reward, unit) =>
      unit === undefined ? policy.observe(chosen, reward) : policy.observe(chosen, reward, unit),
  };
}
