/**
 * User-level private doubly robust estimate (`evaluate --private --unit user` of a `--target`):
 * neighbouring logs differ by all the rows of one unit, contexts and propensities included, added
 * or removed; each unit keeps at most k rows ({@link firstContributions}). With clipped weights
 * w~ = min(w, C) and a reward model q in [0, 1] that is public or released privately at the same
 * unit ({@link privateUnitRewardModel}), per kept row
 *
 *   d_t = sum_a pi(a | x_t) q(x_t, a) + w~_t (r_t - q(x_t, a_t))   in [-C, 1 + C],
 *
 * so |d_t| <= 1 + C. Nothing is public when rows are removed (not even their count), so one
 * Gaussian release carries
 *
 *   (D, DQ / (1 + C), N (1 + C)),   D = sum d_t,  DQ = sum d_t^2,  N = the number of kept rows.
 *
 * One row moves each coordinate by at most 1 + C (|d_t| <= 1 + C, d_t^2 <= (1 + C)^2), a unit's k
 * rows by at most k (1 + C): the L2 sensitivity is k (1 + C) sqrt(3). It uses the clip C, not the
 * largest realised weight (the removed rows' weights are private). DR = D~ / N~, with the noise's
 * variance on the ratio by the delta method and the sampling variance (rows treated as independent,
 * exact for k = 1) from DQ~. The clip's bias is as at event level (either sign, small where q fits).
 */
import type { GaussianMechanism } from '../mechanisms/index.js';
import { checkOpeInput, type OpeInput } from './OpeInput.js';
import { clippedWeights, type PrivateEstimate, privateEstimate } from './privateEstimates.js';
import type { PrivateUnitEstimatesOptions } from './privateUnitEstimates.js';

/**
 * @param input - the estimators' input built from the kept rows only, with the reward model.
 * @example
 * privateUnitDoublyRobust(input, mechanism, { clip: 4, contributions: 1, z: 1.96, round: 1, label: 'user DR' });
 * // returns { estimator: 'dr', value: ~0.6, interval: [~0.4, ~0.8], ... }
 */
export function privateUnitDoublyRobust(
  input: OpeInput,
  mechanism: GaussianMechanism,
  options: PrivateUnitEstimatesOptions,
): PrivateEstimate {
  const n = checkOpeInput(input, true);
  const k = options.contributions;
  if (!Number.isSafeInteger(k) || k < 1) {
    throw new RangeError(`privateUnitDoublyRobust: contributions must be a positive integer. Got ${k}.`);
  }
  const q = input.rewardModel!;
  for (let j = 0; j < q.length; j++) {
    if (!(q[j]! >= 0 && q[j]! <= 1)) {
      throw new RangeError(
        `privateUnitDoublyRobust: the reward model must predict in [0, 1] (it bounds the sensitivity). Got ${q[j]} at arm ${j}.`,
      );
    }
  }
  const clip = options.clip;
  const { w } = clippedWeights(input, clip, 'privateUnitDoublyRobust');
  const scale = 1 + clip;
  const stat = new Float64Array(3);
  for (let t = 0; t < n; t++) {
    let dm = 0;
    for (let j = input.offsets[t]!; j < input.offsets[t + 1]!; j++) dm += input.target[j]! * q[j]!;
    const d = dm + w[t]! * (input.rewards[t]! - q[input.offsets[t]! + input.actions[t]!]!);
    stat[0] = stat[0]! + d;
    stat[1] = stat[1]! + (d * d) / scale;
    stat[2] = stat[2]! + scale;
  }
  const sensitivity = k * scale * Math.sqrt(3);
  const noisy = new Float64Array(3);
  mechanism.release(stat, 0, 3, sensitivity, noisy, 0, options.round, 0, options.label);
  const sigma = mechanism.calibration.sigma(sensitivity);
  const count = noisy[2]! / scale;
  const value = count > 0 ? noisy[0]! / count : Number.NaN;
  const dq = noisy[1]! * scale;
  const samplingSd = count > 0 ? Math.sqrt(Math.max(0, dq / count - value * value) / count) : Number.NaN;
  const noiseSd =
    count > 0 ? Math.sqrt(sigma * sigma + value * value * (sigma / scale) ** 2) / count : Number.NaN;
  return privateEstimate('dr', value, options.z, samplingSd, noiseSd);
}
