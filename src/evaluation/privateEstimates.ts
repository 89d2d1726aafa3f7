/**
 * Differentially private IPW and SNIPW (event level: the protected data are the logged rewards;
 * contexts, chosen arms, propensities and the evaluated distribution are public, as in the
 * policies' privacy model, SPEC section 1). One Gaussian release per evaluated setting, through a
 * {@link GaussianMechanism} and its ledger, of the vector
 *
 *   (S, Q, U) = (sum_t w~_t r_t, sum_t (w~_t r_t)^2, sum_t w~_t^2 r_t),  w~_t = min(w_t, clip),
 *
 * whose L2 sensitivity to one reward in [0, 1] is Delta = sqrt(c^2 + 2 c^4) with c = max_t w~_t
 * (public: it depends on the weights only). From it: IPW = S~ / n and SNIPW = S~ / W (W = sum w~,
 * public), each with a normal interval whose variance adds the sampling variance estimated from the
 * released (Q~, U~) and the privacy noise's known variance.
 *
 * The clip bounds the sensitivity and biases the estimates downwards when some weight exceeds it
 * (IPW then estimates sum_t min(w_t, clip) r_t / n <= the value); with clip >= the largest possible
 * weight (1 / the smallest logging propensity, for a target that puts all its mass on one arm) there
 * is no bias. DR is not released: its reward model is fitted on the private rewards, so one reward
 * moves every round's prediction.
 *
 * The evaluated distribution must not depend on the logged rewards except through differentially
 * private releases (a fixed target, or a private policy whose own ledger then composes with this one).
 */
import type { GaussianMechanism } from '../mechanisms/index.js';
import { importanceWeights } from './importanceWeights.js';
import { checkOpeInput, type OpeInput } from './OpeInput.js';

/** One private release's estimates. */
export interface PrivateEstimate {
  readonly estimator: 'ipw' | 'snipw';
  readonly value: number;
  /** Normal interval covering the sampling of the rounds and the privacy noise (not the clip's bias). */
  readonly interval: readonly [number, number];
  /** Standard deviation of the privacy noise on this estimate. */
  readonly noiseSd: number;
  /** Estimated sampling standard deviation (from the released statistics). */
  readonly samplingSd: number;
}

export interface PrivateEstimatesOptions {
  /** Weight clip c > 0: every weight above it is set to it. */
  readonly clip: number;
  /** The normal quantile of the interval's level, e.g. 1.959964 for 95%. */
  readonly z: number;
  /** Ledger labels: the release's round and label. */
  readonly round: number;
  readonly label: string;
}

/**
 * @returns IPW and SNIPW from one release of (S, Q, U); the mechanism's ledger records it.
 * @example
 * privateEstimates(input, mechanism, { clip: 20, z: 1.96, round: 0, label: 'evaluation LinUCB' });
 * // returns [{ estimator: 'ipw', value: ~0.61, interval: [~0.55, ~0.67], ... }, { estimator: 'snipw', ... }]
 */
export function privateEstimates(
  input: OpeInput,
  mechanism: GaussianMechanism,
  options: PrivateEstimatesOptions,
): readonly PrivateEstimate[] {
  const n = checkOpeInput(input);
  const clip = options.clip;
  if (!(clip > 0 && clip < Number.POSITIVE_INFINITY)) {
    throw new RangeError(`privateEstimates: clip must be a positive finite number. Got ${clip}.`);
  }
  const w = importanceWeights(input);
  let c = 0;
  let sumW = 0;
  const stat = new Float64Array(3);
  for (let t = 0; t < n; t++) {
    const wt = Math.min(w[t]!, clip);
    const r = input.rewards[t]!;
    c = Math.max(c, wt);
    sumW += wt;
    stat[0] = stat[0]! + wt * r;
    stat[1] = stat[1]! + wt * r * (wt * r);
    stat[2] = stat[2]! + wt * wt * r;
  }
  // sensitivity to one reward in [0, 1] (public: weights only); a floor keeps it positive
  const sensitivity = Math.max(Math.sqrt(c * c + 2 * c ** 4), 1e-12);
  const noisy = new Float64Array(3);
  mechanism.release(stat, 0, 3, sensitivity, noisy, 0, options.round, 0, options.label);
  const sigma = mechanism.calibration.sigma(sensitivity);
  const [s, q, u] = [noisy[0]!, noisy[1]!, noisy[2]!];
  const ipw = s / n;
  const ipwSampling = Math.sqrt(Math.max(0, q / n - ipw * ipw) / n);
  const ipwNoise = sigma / n;
  const snipw = sumW > 0 ? s / sumW : Number.NaN;
  let w2 = 0;
  for (let t = 0; t < n; t++) w2 += Math.min(w[t]!, clip) ** 2;
  const snipwSampling =
    sumW > 0 ? Math.sqrt(Math.max(0, q - 2 * snipw * u + snipw * snipw * w2)) / sumW : Number.NaN;
  const snipwNoise = sumW > 0 ? sigma / sumW : Number.NaN;
  const interval = (v: number, a: number, b: number): readonly [number, number] => {
    const h = options.z * Math.sqrt(a * a + b * b);
    return Object.freeze([v - h, v + h]) as readonly [number, number];
  };
  return Object.freeze([
    Object.freeze({
      estimator: 'ipw' as const,
      value: ipw,
      interval: interval(ipw, ipwSampling, ipwNoise),
      noiseSd: ipwNoise,
      samplingSd: ipwSampling,
    }),
    Object.freeze({
      estimator: 'snipw' as const,
      value: snipw,
      interval: interval(snipw, snipwSampling, snipwNoise),
      noiseSd: snipwNoise,
      samplingSd: snipwSampling,
    }),
  ]);
}
