import type { BootstrapOptions, Estimate } from './Estimate.js';
import { checkOpeInput, type OpeInput } from './OpeInput.js';
import { ratioBootstrap } from './ratioBootstrap.js';

/**
 * Li et al. (2011) replay: the average reward over the rounds where the evaluated policy picks the
 * logged arm, V = sum_t m_t r_t / sum_t m_t with m_t = pi(a_t | x_t). With a one-hot target (the arm
 * the policy actually selected, as `replayTarget` records it) m_t is the match indicator; with a
 * distribution it is its expectation. Unbiased only under uniformly random logging (propensities
 * 1/K_t): use IPW or DR otherwise. Effective sample size: sum_t m_t (the matched rounds). Cost O(n).
 *
 * @example
 * replay(input, { resamples: 1000, seed: 1 }); // returns { estimator: 'replay', value: ~0.62, effectiveSampleSize: ~n/K, ... }
 */
export function replay(input: OpeInput, options: BootstrapOptions = {}): Estimate {
  const n = checkOpeInput(input);
  const num = new Float64Array(n);
  const den = new Float64Array(n);
  let matched = 0;
  for (let t = 0; t < n; t++) {
    const m = input.target[input.offsets[t]! + input.actions[t]!]!;
    den[t] = m;
    num[t] = m * input.rewards[t]!;
    matched += m;
  }
  return ratioBootstrap('replay', num, den, matched, options);
}
