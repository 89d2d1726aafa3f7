import type { BootstrapOptions, Estimate } from './Estimate.js';
import { effectiveSampleSize, importanceWeights } from './importanceWeights.js';
import type { OpeInput } from './OpeInput.js';
import { ratioBootstrap } from './ratioBootstrap.js';

/**
 * Self-normalised IPW (Swaminathan & Joachims 2015): V = sum_t w_t r_t / sum_t w_t. Slightly biased
 * (consistent), usually with much lower variance than IPW, and always inside the reward range.
 * Cost O(n) plus the bootstrap.
 *
 * @example
 * snipw(input, { resamples: 1000, seed: 1 }); // returns { estimator: 'snipw', value: ~0.62, ... }
 */
export function snipw(input: OpeInput, options: BootstrapOptions = {}): Estimate {
  const w = importanceWeights(input);
  const num = new Float64Array(w.length);
  for (let t = 0; t < w.length; t++) num[t] = w[t]! * input.rewards[t]!;
  return ratioBootstrap('snipw', num, w, effectiveSampleSize(w), options);
}
