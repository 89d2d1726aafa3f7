import { modelValues } from './directMethod.js';
import type { BootstrapOptions, Estimate } from './Estimate.js';
import { effectiveSampleSize, importanceWeights } from './importanceWeights.js';
import type { OpeInput } from './OpeInput.js';
import { ratioBootstrap } from './ratioBootstrap.js';

/**
 * Doubly robust (Dudík, Langford & Li 2011): V = (1/n) sum_t [ sum_a pi(a|x_t) q(x_t, a) + w_t (r_t - q(x_t, a_t)) ].
 * Unbiased when the propensities are right (whatever the model), and its variance shrinks as the
 * model improves. Effective sample size as IPW's. Cost O(n K) plus the bootstrap.
 *
 * @example
 * doublyRobust(input, { resamples: 1000, seed: 1 }); // returns { estimator: 'dr', value: ~0.62, ... }
 */
export function doublyRobust(input: OpeInput, options: BootstrapOptions = {}): Estimate {
  const v = modelValues(input);
  const w = importanceWeights(input);
  const q = input.rewardModel!;
  for (let t = 0; t < v.length; t++) {
    v[t] = v[t]! + w[t]! * (input.rewards[t]! - q[input.offsets[t]! + input.actions[t]!]!);
  }
  return ratioBootstrap('dr', v, null, effectiveSampleSize(w), options);
}
