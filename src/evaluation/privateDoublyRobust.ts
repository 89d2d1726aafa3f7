/**
 * Differentially private doubly robust estimate (event level, as {@link privateEstimates}), with
 * clipped weights and a bounded reward model q(x, a) in [0, 1] that is public or itself released
 * privately ({@link privateRewardModel}; a model fitted on the raw rewards would let one reward move
 * every round's prediction). Per round
 *
 *   d_t = sum_a pi(a | x_t) q(x_t, a) + w~_t (r_t - q(x_t, a_t)),   w~_t = min(w_t, clip),
 *
 * and DR = (1/n) sum_t d_t. The first term is public given q; one Gaussian release of
 *
 *   (D, DQ / (2 (1 + c))),  D = sum_t w~_t (r_t - q(x_t, a_t)),  DQ = sum_t d_t^2,  c = max_t w~_t,
 *
 * carries the rest. Sensitivity to one reward in [0, 1]: D moves by at most w~_t <= c; d_t lies in
 * [-c, 1 + c] and moves by at most c, so d_t^2 moves by at most 2 c (1 + c), and the scaled DQ by at
 * most c: Delta = c sqrt(2); with `contributions` k (all the rewards of one unit, at most k rows,
 * protected together) k c sqrt(2).
 *
 * Bias: the clip biases DR by (1/n) sum_t (w~_t - w_t) (r_t - q(x_t, a_t)) in expectation, of either
 * sign and small where q fits (the clip's bias on IPW is the same sum with q = 0, always downward).
 * A privately released q depends on every reward through its noisy statistic, so it is not
 * independent of r_t as DR's unbiasedness needs; the dependence is one term of n in that statistic.
 */
import type { GaussianMechanism } from '../mechanisms/index.js';
import { checkOpeInput, type OpeInput } from './OpeInput.js';
import {
  clippedWeights,
  type PrivateEstimate,
  type PrivateEstimatesOptions,
  privateEstimate,
  rewardsPerUnit,
} from './privateEstimates.js';

/**
 * @returns DR from one release of (D, DQ / (2(1 + c))); the mechanism's ledger records it.
 * @example
 * privateDoublyRobust(input, mechanism, { clip: 20, z: 1.96, round: 1, label: 'evaluation DR' });
 * // returns { estimator: 'dr', value: ~0.6, interval: [~0.55, ~0.65], ... }
 */
export function privateDoublyRobust(
  input: OpeInput,
  mechanism: GaussianMechanism,
  options: PrivateEstimatesOptions,
): PrivateEstimate {
  const n = checkOpeInput(input, true);
  const q = input.rewardModel!;
  for (let j = 0; j < q.length; j++) {
    if (!(q[j]! >= 0 && q[j]! <= 1)) {
      throw new RangeError(
        `privateDoublyRobust: the reward model must predict in [0, 1] (it bounds the sensitivity). Got ${q[j]} at arm ${j}.`,
      );
    }
  }
  const { w, max } = clippedWeights(input, options.clip, 'privateDoublyRobust');
  const c = Math.max(max, 1e-12);
  const scale = 2 * (1 + c);
  let dmSum = 0;
  const stat = new Float64Array(2);
  for (let t = 0; t < n; t++) {
    let dm = 0;
    for (let j = input.offsets[t]!; j < input.offsets[t + 1]!; j++) dm += input.target[j]! * q[j]!;
    const correction = w[t]! * (input.rewards[t]! - q[input.offsets[t]! + input.actions[t]!]!);
    const d = dm + correction;
    dmSum += dm;
    stat[0] = stat[0]! + correction;
    stat[1] = stat[1]! + (d * d) / scale;
  }
  const sensitivity = rewardsPerUnit(options, 'privateDoublyRobust') * c * Math.SQRT2;
  const noisy = new Float64Array(2);
  mechanism.release(stat, 0, 2, sensitivity, noisy, 0, options.round, 0, options.label);
  const sigma = mechanism.calibration.sigma(sensitivity);
  const value = (dmSum + noisy[0]!) / n;
  const dq = noisy[1]! * scale;
  const samplingSd = Math.sqrt(Math.max(0, dq / n - value * value) / n);
  const noiseSd = sigma / n;
  return privateEstimate('dr', value, options.z, samplingSd, noiseSd);
}
