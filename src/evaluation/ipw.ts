import type { BootstrapOptions, Estimate } from './Estimate.js';
import { effectiveSampleSize, importanceWeights } from './importanceWeights.js';
import type { OpeInput } from './OpeInput.js';
import { ratioBootstrap } from './ratioBootstrap.js';

/**
 * Inverse propensity weighting (Horvitz & Thompson 1952): V = (1/n) sum_t w_t r_t with
 * w_t = pi(a_t | x_t) / p_t. Unbiased when every arm the target can pick has p > 0; its variance
 * grows with the weights (see the effective sample size). Cost O(n) plus the bootstrap.
 *
 * @example
 * ipw(input, { resamples: 1000, seed: 1 }); // returns { estimator: 'ipw', value: ~0.62, interval: [~0.58, ~0.66], ... }
 */
export function ipw(input: OpeInput, options: BootstrapOptions = {}): Estimate {
  const w = importanceWeights(input);
  const num = new Float64Array(w.length);
  for (let t = 0; t < w.length; t++) num[t] = w[t]! * input.rewards[t]!;
  return ratioBootstrap('ipw', num, null, effectiveSampleSize(w), options);
}
