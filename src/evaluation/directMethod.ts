import type { BootstrapOptions, Estimate } from './Estimate.js';
import { checkOpeInput, type OpeInput } from './OpeInput.js';
import { ratioBootstrap } from './ratioBootstrap.js';

/**
 * Per-round model value sum_a pi(a | x_t) q(x_t, a) written to `out` (length n).
 *
 * @example
 * modelValues(input); // returns Float64Array of n values in [0, 1] for a model with predictions in [0, 1]
 */
export function modelValues(input: OpeInput, out?: Float64Array): Float64Array {
  const n = checkOpeInput(input, true);
  const q = input.rewardModel!;
  const v = out ?? new Float64Array(n);
  for (let t = 0; t < n; t++) {
    let s = 0;
    for (let j = input.offsets[t]!; j < input.offsets[t + 1]!; j++) s += input.target[j]! * q[j]!;
    v[t] = s;
  }
  return v;
}

/**
 * Direct method (Beygelzimer & Langford 2009; Dudík et al. 2011): V = (1/n) sum_t sum_a pi(a|x_t) q(x_t, a)
 * with a reward model q fitted on other rounds. Low variance, but biased as much as the model is
 * wrong; uses no propensity. Effective sample size n. Cost O(n K) plus the bootstrap.
 *
 * @example
 * directMethod(input, { resamples: 1000, seed: 1 }); // returns { estimator: 'dm', value: ~0.61, ... }
 */
export function directMethod(input: OpeInput, options: BootstrapOptions = {}): Estimate {
  const v = modelValues(input);
  return ratioBootstrap('dm', v, null, v.length, options);
}
