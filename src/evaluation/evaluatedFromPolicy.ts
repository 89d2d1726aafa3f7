/**
 * A library policy as an {@link EvaluatedPolicy}: its action distribution comes from
 * `policy.probabilities(features, k, { samples })` (contract 3: exact for UCB-type policies, Monte
 * Carlo over its own scratch stream for Thompson sampling, with the privacy noise already in its
 * released statistics), and it learns logged rounds through `policy.observe` (same batching, noise
 * and ledger as `update`, so `policy.privacy()` afterwards is what evaluating it released).
 */
import type { Policy } from '../policies/index.js';
import type { EvaluatedPolicy } from './EvaluatedPolicy.js';

/** The contract-3 surface used here. */
interface ScoringPolicy {
  probabilities(
    features: Float64Array,
    k: number,
    options?: { samples?: number },
  ): { readonly probabilities: Float64Array };
  observe(features: Float64Array, reward: number): void;
}

export interface EvaluatedFromPolicyOptions {
  /** Monte Carlo samples per round for sampling policies (passed to `probabilities`); default: the policy's. */
  readonly samples?: number;
}

/**
 * @example
 * const evaluated = evaluatedFromPolicy(createPolicy('adaprivate-ts', { dim: 20, horizon: 5000, seed: 1, epsilon: 1 }), { samples: 200 });
 */
export function evaluatedFromPolicy(
  policy: Policy,
  options: EvaluatedFromPolicyOptions = {},
): EvaluatedPolicy {
  const p = policy as Policy & Partial<ScoringPolicy>;
  if (typeof p.probabilities !== 'function' || typeof p.observe !== 'function') {
    throw new TypeError(
      `evaluatedFromPolicy: policy '${policy.id}' has no probabilities/observe (Policy contract 3); evaluate it through an ActionDistribution instead.`,
    );
  }
  const opts = options.samples === undefined ? undefined : { samples: options.samples };
  return {
    distribution: (features, k, out) => {
      out.set(p.probabilities!(features, k, opts).probabilities.subarray(0, k));
    },
    learn: (chosen, reward) => p.observe!(chosen, reward),
  };
}
