import { sampleDiscreteGaussian, sigmaSquaredRational, type UniformWords } from '../random/index.js';

/** Grid resolution: the grid step gamma satisfies gamma sqrt(n) <= 2^-GRID_BITS sensitivity. */
const GRID_BITS = 20;
/** Relative slack on the sensitivity for the floating-point error of the statistic itself. */
const FLOAT_SLACK = 2 ** -20;
const MAX_EXACT = 2 ** 53;
/**
 * Largest discrete noise scale sigmaZ (in grid steps) released: 2^52 / 20, so that a noisy value
 * leaves the exactly representable range (|round(v / gamma) + Z| >= 2^53, with |round(v / gamma)|
 * < 2^52) only if |Z| >= 20 sigmaZ: probability below 1e-88 per coordinate.
 */
export const MAX_DISCRETE_SIGMA_Z = 2 ** 52 / 20;

/**
 * The grid step gamma of {@link discreteGaussianRelease} for n coordinates of L2 sensitivity
 * `sensitivity`: the largest power of two with gamma sqrt(n) <= 2^-20 sensitivity.
 * @example discreteGridStep(1, 64) // 2^-23 = 1.1920928955078125e-7
 */
export function discreteGridStep(sensitivity: number, n: number): number {
  return 2 ** Math.floor(Math.log2(sensitivity / (Math.sqrt(n) * 2 ** GRID_BITS)));
}

/**
 * The noise scale, in grid steps, of {@link discreteGaussianRelease} for n coordinates of L2
 * sensitivity `sensitivity` at noise scale `sigma`: sigmaZ = sigma Delta' / (Delta gamma).
 */
function gridNoiseScale(sensitivity: number, sigma: number, n: number): { gamma: number; sigmaZ: number } {
  const gamma = discreteGridStep(sensitivity, n);
  const effective = sensitivity * (1 + FLOAT_SLACK) + gamma * Math.sqrt(n);
  return { gamma, sigmaZ: (sigma * effective) / sensitivity / gamma };
}

/**
 * Why the discrete release cannot release n coordinates at noise scale `ratio` times their
 * sensitivity (at any sensitivity: the grid step follows it), or null when it can. The bound is
 * taken over every sensitivity, whose mantissa moves sigmaZ by up to a factor of 2, so a policy
 * whose sigma / sensitivity is fixed can be checked once, when it is built.
 * @example discreteNoiseRefusal(4.9, 20) // null (epsilon = 1 at d = 20)
 */
export function discreteNoiseRefusal(ratio: number, n: number): string | null {
  // gamma > 2^-21 Delta / sqrt(n) (the largest power of two <= 2^-20 Delta / sqrt(n)), so
  // sigmaZ = ratio (Delta (1 + 2^-20) + gamma sqrt(n)) / gamma < ratio sqrt(n) (2^21 (1 + 2^-20) + 1)
  const worst = ratio * Math.sqrt(n) * (2 ** 21 * (1 + FLOAT_SLACK) + 1);
  if (worst <= MAX_DISCRETE_SIGMA_Z) return null;
  const most = MAX_DISCRETE_SIGMA_Z / (Math.sqrt(n) * (2 ** 21 * (1 + FLOAT_SLACK) + 1));
  return `its noise scale sigma = ${ratio.toPrecision(4)} times the sensitivity is more than the exact discrete Gaussian sampler can release at ${n} coordinates (at most ${most.toPrecision(4)} times the sensitivity): the privacy parameter (epsilon or rho) is too small. Raise it, or use a seeded noise stream (noiseSeed, research only).`;
}

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
 * no floating-point operation acts on the secret before the noise is added. Throws a RangeError, and
 * leaves `values` unchanged (`out`, a scratch, may hold part of the draw), if a value is too large for the grid (|value| / gamma >=
 * 2^52) or the noise scale is above {@link MAX_DISCRETE_SIGMA_Z} grid steps (policies refuse such a
 * scale when they are built: {@link discreteNoiseRefusal}). The messages name no value of the
 * statistic: a refused release must not leak what it would have released.
 *
 * With `out`, the noisy values go to out[outStart .. outStart + n) and `values` is only read (the
 * mechanisms room's scratch); without it they replace values[start..end) (a temporary of n values).
 *
 * Cost: n discrete Gaussian samples (BigInt arithmetic), about 10 us each (docs/numerics.md).
 */
export function discreteGaussianRelease(
  values: Float64Array,
  start: number,
  end: number,
  sensitivity: number,
  sigma: number,
  src: UniformWords,
  out?: Float64Array,
  outStart = 0,
): void {
  const n = end - start;
  if (n <= 0) return;
  const { gamma, sigmaZ } = gridNoiseScale(sensitivity, sigma, n);
  if (!(sigmaZ <= MAX_DISCRETE_SIGMA_Z)) {
    throw new RangeError(
      `discreteGaussianRelease: noise scale ${sigmaZ} grid steps is more than ${MAX_DISCRETE_SIGMA_Z} (sigma ${sigma}, sensitivity ${sensitivity}, ${n} coordinates); nothing was released.`,
    );
  }
  for (let i = start; i < end; i++) {
    if (!(Math.abs(Math.round(values[i]! / gamma)) < MAX_EXACT / 2)) {
      throw new RangeError(
        `discreteGaussianRelease: coordinate ${i - start} of the statistic is too large for the grid step ${gamma} (sensitivity ${sensitivity}); nothing was released.`,
      );
    }
  }
  const [num, den] = sigmaSquaredRational(sigmaZ);
  const dst = out ?? new Float64Array(n);
  const o = out === undefined ? -start : outStart - start;
  if (out !== undefined && !(outStart >= 0 && outStart + n <= out.length)) {
    throw new RangeError(`discreteGaussianRelease: out has no room for ${n} values at ${outStart}.`);
  }
  // out, when given, is the caller's scratch: it may hold partial values after a refusal
  for (let i = start; i < end; i++) {
    const noisy = BigInt(Math.round(values[i]! / gamma)) + sampleDiscreteGaussian(num, den, src);
    if (!(noisy < BigInt(MAX_EXACT) && noisy > -BigInt(MAX_EXACT))) {
      throw new RangeError(
        'discreteGaussianRelease: the noisy value left the exactly representable range; nothing was released.',
      );
    }
    dst[i + o] = Number(noisy) * gamma;
  }
  // all or nothing: the values change only once every coordinate has its noisy value
  if (out === undefined) values.set(dst, start);
}
