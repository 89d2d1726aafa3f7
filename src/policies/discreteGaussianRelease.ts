import { sampleDiscreteGaussian, sigmaSquaredRational, type UniformWords } from '../random/index.js';

/** Grid resolution: the grid step gamma satisfies gamma sqrt(n) <= 2^-GRID_BITS sensitivity. */
const GRID_BITS = 20;
/** Relative slack on the sensitivity for the floating-point error of the statistic itself. */
const FLOAT_SLACK = 2 ** -20;
const MAX_EXACT = 2 ** 53;

/**
 * The floating-point-safe Gaussian release (docs/numerics.md, "The discrete Gaussian release"):
 * values[start..end) (n coordinates, L2 sensitivity `sensitivity`) are replaced by
 * gamma (round(values / gamma) + Z), Z ~ N_Z(0, sigmaZ^2)^n the exact discrete Gaussian of Canonne,
 * Kamath & Steinke (2020) drawn from `src`, on the grid gamma Z with gamma a power of two,
 * gamma <= 2^-20 sensitivity / sqrt(n).
 *
 * Accounting: rounding to the grid moves each coordinate by at most gamma / 2, so the rounded
 * statistic has L2 sensitivity Delta' = Delta (1 + 2^-20) + gamma sqrt(n) (the 2^-20 term covers
 * the floating-point error of the statistic itself); the noise is scaled up to sigma' = sigma
 * Delta' / Delta, sigmaZ = sigma' / gamma, so the release is Delta'^2 / (2 sigma'^2) = Delta^2 /
 * (2 sigma^2)-zCDP (CKS Theorem 14): exactly the rho the ledger records for gaussian(Delta, sigma).
 * The noise is at most 2^-19 (relative) larger than the continuous mechanism's.
 *
 * Every output is an integer multiple of gamma below 2^53 gamma, so it is exactly representable:
 * no floating-point operation acts on the secret before the noise is added. Throws a RangeError if a
 * value is too large for the grid (|value| / gamma >= 2^52).
 *
 * Cost: n discrete Gaussian samples (BigInt arithmetic), about 10 us each (docs/numerics.md).
 */
/**
 * The grid step gamma of {@link discreteGaussianRelease} for n coordinates of L2 sensitivity
 * `sensitivity`: the largest power of two with gamma sqrt(n) <= 2^-20 sensitivity.
 * @example discreteGridStep(1, 64) // 2^-23 = 1.1920928955078125e-7
 */
export function discreteGridStep(sensitivity: number, n: number): number {
  return 2 ** Math.floor(Math.log2(sensitivity / (Math.sqrt(n) * 2 ** GRID_BITS)));
}

export function discreteGaussianRelease(
  values: Float64Array,
  start: number,
  end: number,
  sensitivity: number,
  sigma: number,
  src: UniformWords,
): void {
  const n = end - start;
  if (n <= 0) return;
  const gamma = discreteGridStep(sensitivity, n);
  const effective = sensitivity * (1 + FLOAT_SLACK) + gamma * Math.sqrt(n);
  const sigmaZ = (sigma * effective) / sensitivity / gamma;
  const [num, den] = sigmaSquaredRational(sigmaZ);
  for (let i = start; i < end; i++) {
    const k = Math.round(values[i]! / gamma);
    if (!(Math.abs(k) < MAX_EXACT / 2)) {
      throw new RangeError(
        `discreteGaussianRelease: value ${values[i]} is too large for the grid step ${gamma} (sensitivity ${sensitivity}).`,
      );
    }
    const z = sampleDiscreteGaussian(num, den, src);
    const out = BigInt(k) + z;
    if (!(out < BigInt(MAX_EXACT) && out > -BigInt(MAX_EXACT))) {
      throw new RangeError('discreteGaussianRelease: the noisy value left the exactly representable range.');
    }
    values[i] = Number(out) * gamma;
  }
}
