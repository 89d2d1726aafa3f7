/**
 * Differentially private IPW and SNIPW (event level: the protected data are the logged rewards;
 * contexts, chosen arms, propensities and the evaluated distribution are public, as in the
 * policies' privacy model, SPEC section 1). One Gaussian release per evaluated setting, through a
 * {@link GaussianMechanism} and its ledger, of the vector
 *
 *   (S, Q / c, U / c),  S = sum_t w~_t r_t, Q = sum_t (w~_t r_t)^2, U = sum_t w~_t^2 r_t,
 *   w~_t = min(w_t, clip),
 *
 * with c = max_t w~_t (public: it depends on the weights only). One reward in [0, 1] moves each
 * coordinate by at most c, so the L2 sensitivity is Delta = c sqrt(3) (k c sqrt(3) when a unit's
 * k rewards are protected together: `contributions`) (scaling Q and U by 1/c keeps
 * the noise on S at c sqrt(3) sigma instead of about c^2 sqrt(2) sigma for the unscaled vector).
 * From it: IPW = S~ / n and SNIPW = S~ / W (W = sum w~, public), each with a normal interval whose
 * variance adds the sampling variance estimated from the released (Q~, U~) and the privacy noise's
 * known variance.
 *
 * The clip bounds the sensitivity and biases the estimates downwards when some weight exceeds it
 * (IPW then estimates sum_t min(w_t, clip) r_t / n <= the value); with clip >= the largest possible
 * weight (1 / the smallest logging propensity, e.g. K / gamma under an exploration floor gamma / K)
 * there is no bias. Private DR: {@link privateDoublyRobust}; user level: `privateUnitEstimates`.
 *
 * The evaluated distribution must not depend on the logged rewards except through differentially
 * private releases (a fixed target, or a private policy whose own ledger then composes with this one).
 */
import type { GaussianMechanism } from '../mechanisms/index.js';
import { importanceWeights } from './importanceWeights.js';
import { checkOpeInput, type OpeInput } from './OpeInput.js';

/** One private release's estimate. */
export interface PrivateEstimate {
  readonly estimator: 'ipw' | 'snipw' | 'dr';
  readonly value: number;
  /** Normal interval covering the sampling of the rounds and the privacy noise (not the clip's bias). */
  readonly interval: readonly [number, number];
  /** Standard deviation of the privacy noise on this estimate. */
  readonly noiseSd: number;
  /** Estimated sampling standard deviation (from the released statistics). */
  readonly samplingSd: number;
}

export interface PrivateEstimatesOptions {
  /** Weight clip > 0: every weight above it is set to it. */
  readonly clip: number;
  /** The normal quantile of the interval's level, e.g. 1.959964 for 95%. */
  readonly z: number;
  /** Ledger labels: the release's round and label. */
  readonly round: number;
  readonly label: string;
  /**
   * Rewards per protected unit k (positive integer, default 1: event level). With k > 1 the
   * neighbouring logs differ in all the rewards of one unit, at most k rows of the input (the caller
   * keeps at most k rows per unit, e.g. {@link firstContributions}); contexts, arms, propensities and
   * the units stay public, as in the policies' user-level model. Each row moves the statistic by at
   * most its per-row bound, so the sensitivity is k times the event-level one.
   */
  readonly contributions?: number;
}

/** The rewards-per-unit factor k of the options (validated). */
export function rewardsPerUnit(options: { readonly contributions?: number }, who: string): number {
  const k = options.contributions ?? 1;
  if (!Number.isSafeInteger(k) || k < 1) {
    throw new RangeError(`${who}: contributions must be a positive integer. Got ${k}.`);
  }
  return k;
}

/** Clipped weights of the input and their largest value (the clip is checked). */
export function clippedWeights(input: OpeInput, clip: number, who: string): { w: Float64Array; max: number } {
  if (!(clip > 0 && clip < Number.POSITIVE_INFINITY)) {
    throw new RangeError(`${who}: clip must be a positive finite number. Got ${clip}.`);
  }
  const w = importanceWeights(input);
  let max = 0;
  for (let t = 0; t < w.length; t++) {
    w[t] = Math.min(w[t]!, clip);
    max = Math.max(max, w[t]!);
  }
  return { w, max };
}

/** A frozen normal interval v +- z sqrt(a^2 + b^2). */
export function normalInterval(v: number, z: number, a: number, b: number): readonly [number, number] {
  const h = z * Math.sqrt(a * a + b * b);
  return Object.freeze([v - h, v + h]) as readonly [number, number];
}

/** One frozen {@link PrivateEstimate} with its normal interval value +- z sqrt(samplingSd^2 + noiseSd^2). */
export function privateEstimate(
  estimator: PrivateEstimate['estimator'],
  value: number,
  z: number,
  samplingSd: number,
  noiseSd: number,
): PrivateEstimate {
  return Object.freeze({
    estimator,
    value,
    interval: normalInterval(value, z, samplingSd, noiseSd),
    noiseSd,
    samplingSd,
  });
}

/**
 * @returns IPW and SNIPW from one release of (S, Q/c, U/c); the mechanism's ledger records it.
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
  const { w, max } = clippedWeights(input, options.clip, 'privateEstimates');
  // a floor keeps the scale and the sensitivity positive when every weight is 0
  const c = Math.max(max, 1e-12);
  let sumW = 0;
  let w2 = 0;
  const stat = new Float64Array(3);
  for (let t = 0; t < n; t++) {
    const wt = w[t]!;
    const r = input.rewards[t]!;
    sumW += wt;
    w2 += wt * wt;
    stat[0] = stat[0]! + wt * r;
    stat[1] = stat[1]! + (wt * r * (wt * r)) / c;
    stat[2] = stat[2]! + (wt * wt * r) / c;
  }
  const sensitivity = rewardsPerUnit(options, 'privateEstimates') * c * Math.sqrt(3);
  const noisy = new Float64Array(3);
  mechanism.release(stat, 0, 3, sensitivity, noisy, 0, options.round, 0, options.label);
  const sigma = mechanism.calibration.sigma(sensitivity);
  const s = noisy[0]!;
  const q = noisy[1]! * c;
  const u = noisy[2]! * c;
  const ipw = s / n;
  const ipwSampling = Math.sqrt(Math.max(0, q / n - ipw * ipw) / n);
  const ipwNoise = sigma / n;
  const snipw = sumW > 0 ? s / sumW : Number.NaN;
  const snipwSampling =
    sumW > 0 ? Math.sqrt(Math.max(0, q - 2 * snipw * u + snipw * snipw * w2)) / sumW : Number.NaN;
  const snipwNoise = sumW > 0 ? sigma / sumW : Number.NaN;
  return Object.freeze([
    privateEstimate('ipw', ipw, options.z, ipwSampling, ipwNoise),
    privateEstimate('snipw', snipw, options.z, snipwSampling, snipwNoise),
  ]);
}
