/**
 * User-level private IPW and SNIPW: the neighbouring logs differ by all the rows of one unit (a user
 * or device id), added or removed, contexts and propensities included. Each unit keeps at most k
 * rows ({@link firstContributions}), and every count the estimates divide by is released too,
 * because under removal no count is public. One Gaussian release per setting of
 *
 *   (S, Q / C, U / C, N C, W, W2 / C)
 *
 * over the kept rows, with C the weight clip, w~ = min(w, C), S = sum w~ r, Q = sum (w~ r)^2,
 * U = sum w~^2 r, N = the number of rows, W = sum w~, W2 = sum w~^2. One row moves each coordinate
 * by at most C (all are sums of non-negative terms), a unit's k rows by at most k C, so the L2
 * sensitivity is k C sqrt(6). It uses the clip C, not the largest realised weight: the weights of
 * the removed rows are private too. IPW = S~ / N~, SNIPW = S~ / W~; the intervals add the sampling
 * variance (rows treated as independent, exact for k = 1) and the noise's (delta method on the
 * ratio). The clip's bias is as at event level (downwards where a weight exceeds C).
 */
import type { GaussianMechanism } from '../mechanisms/index.js';
import { checkOpeInput, type OpeInput } from './OpeInput.js';
import { clippedWeights, type PrivateEstimate, privateEstimate } from './privateEstimates.js';

export interface PrivateUnitEstimatesOptions {
  /** The weight clip C > 0 (it bounds every row's contribution). */
  readonly clip: number;
  /** Contributions per unit k (the bound the kept rows respect). */
  readonly contributions: number;
  readonly z: number;
  readonly round: number;
  readonly label: string;
}

/**
 * @param input - the estimators' input built from the kept rows only.
 * @example
 * privateUnitEstimates(input, mechanism, { clip: 10, contributions: 1, z: 1.96, round: 0, label: 'user' });
 */
export function privateUnitEstimates(
  input: OpeInput,
  mechanism: GaussianMechanism,
  options: PrivateUnitEstimatesOptions,
): readonly PrivateEstimate[] {
  const n = checkOpeInput(input);
  const k = options.contributions;
  if (!Number.isSafeInteger(k) || k < 1) {
    throw new RangeError(`privateUnitEstimates: contributions must be a positive integer. Got ${k}.`);
  }
  const clip = options.clip;
  const { w } = clippedWeights(input, clip, 'privateUnitEstimates');
  const stat = new Float64Array(6);
  for (let t = 0; t < n; t++) {
    const wt = w[t]!;
    const r = input.rewards[t]!;
    stat[0] = stat[0]! + wt * r;
    stat[1] = stat[1]! + (wt * r * (wt * r)) / clip;
    stat[2] = stat[2]! + (wt * wt * r) / clip;
    stat[3] = stat[3]! + clip;
    stat[4] = stat[4]! + wt;
    stat[5] = stat[5]! + (wt * wt) / clip;
  }
  const sensitivity = k * clip * Math.sqrt(6);
  const noisy = new Float64Array(6);
  mechanism.release(stat, 0, 6, sensitivity, noisy, 0, options.round, 0, options.label);
  const sigma = mechanism.calibration.sigma(sensitivity);
  const s = noisy[0]!;
  const q = noisy[1]! * clip;
  const u = noisy[2]! * clip;
  const count = noisy[3]! / clip;
  const sumW = noisy[4]!;
  const w2 = noisy[5]! * clip;
  const ipw = count > 0 ? s / count : Number.NaN;
  const ipwSampling = count > 0 ? Math.sqrt(Math.max(0, q / count - ipw * ipw) / count) : Number.NaN;
  const ipwNoise =
    count > 0 ? Math.sqrt(sigma * sigma + ipw * ipw * (sigma / clip) ** 2) / count : Number.NaN;
  const snipw = sumW > 0 ? s / sumW : Number.NaN;
  const snipwSampling =
    sumW > 0
      ? Math.sqrt(Math.max(0, q - 2 * snipw * u + snipw * snipw * Math.max(0, w2))) / sumW
      : Number.NaN;
  const snipwNoise = sumW > 0 ? Math.sqrt(sigma * sigma * (1 + snipw * snipw)) / sumW : Number.NaN;
  return Object.freeze([
    privateEstimate('ipw', ipw, options.z, ipwSampling, ipwNoise),
    privateEstimate('snipw', snipw, options.z, snipwSampling, snipwNoise),
  ]);
}
