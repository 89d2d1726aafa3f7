/**
 * The exact privacy curve of ONE Poisson-subsampled Gaussian release (sampling rate q, noise
 * multiplier s = sigma / Delta), under add/remove neighbours. With the output normalised to
 * sensitivity 1 the dominating pair is P = (1 - q) N(0, s^2) + q N(1, s^2) (the record is present)
 * and Q = N(0, s^2) (Zhu, Dong & Wang 2022; the same pair as dp_accounting's PLD accountant). The
 * likelihood ratio P/Q = 1 - q + q exp((2x - 1) / (2 s^2)) is increasing in x, so both hockey-stick
 * divergences have closed forms:
 * - remove (P against Q): delta_1(eps) = q delta_G(eps'; 1/s), eps' = ln(1 + (e^eps - 1)/q), where
 *   delta_G is the Gaussian curve (Balle & Wang 2018);
 * - add (Q against P): for eps < -ln(1 - q), with x2 = s^2 ln(1 + (e^-eps - 1)/q) + 1/2,
 *   delta_2(eps) = (1 - e^eps (1 - q)) Phi(x2/s) - q e^eps Phi((x2 - 1)/s); 0 for larger eps.
 * The mechanism's curve is delta(eps) = max(delta_1, delta_2). Evaluated in log space (no underflow,
 * full relative precision in the tails). Cost: O(1); epsilon(delta) bisects (~30 us).
 */
import { gaussianLogDelta, logDiffExp, logNormalCdf, smallestEpsilon } from './gaussianDp.js';

/**
 * eps' = ln(1 + (e^eps - 1) / q), the Gaussian level of the remove direction. For eps > 1 it is
 * computed as eps - ln q + ln(1 - (1 - q) e^-eps), which never overflows (e^eps does past eps ~ 709,
 * where the direct form gave eps' = Infinity and so delta = 0: a false guarantee).
 */
export function removeLevel(epsilon: number, q: number): number {
  if (epsilon <= 1) return Math.log1p(Math.expm1(epsilon) / q);
  return epsilon - Math.log(q) + Math.log1p(-(1 - q) * Math.exp(-epsilon));
}

/** ln delta of the remove direction (P = mixture against Q = N(0, s^2)). Kernel. */
export function subsampledRemoveLogDelta(epsilon: number, q: number, s: number): number {
  if (q >= 1) return gaussianLogDelta(epsilon, 1 / s);
  return Math.log(q) + gaussianLogDelta(removeLevel(epsilon, q), 1 / s);
}

/** ln delta of the add direction (Q = N(0, s^2) against P = mixture). Kernel. */
export function subsampledAddLogDelta(epsilon: number, q: number, s: number): number {
  if (q >= 1) return gaussianLogDelta(epsilon, 1 / s);
  if (epsilon >= -Math.log1p(-q)) return Number.NEGATIVE_INFINITY;
  const x2 = s * s * Math.log1p(Math.expm1(-epsilon) / q) + 0.5;
  const la = logNormalCdf(x2 / s);
  const lb = logNormalCdf((x2 - 1) / s);
  const lc = Math.log(-Math.expm1(epsilon + Math.log1p(-q))); // ln(1 - e^eps (1 - q)) > -inf here
  return logDiffExp(lc + la, Math.log(q) + epsilon + lb);
}

/** ln delta(epsilon) of one subsampled Gaussian: the larger of the two directions. Kernel. */
export function subsampledGaussianLogDelta(epsilon: number, q: number, s: number): number {
  return Math.max(subsampledRemoveLogDelta(epsilon, q, s), subsampledAddLogDelta(epsilon, q, s));
}

function check(where: string, q: number, s: number): void {
  if (typeof q !== 'number' || !(q > 0 && q <= 1)) {
    throw new RangeError(`${where}: q must be in (0, 1]. Got ${String(q)}.`);
  }
  if (typeof s !== 'number' || !Number.isFinite(s) || !(s > 0)) {
    throw new RangeError(`${where}: noise multiplier must be a positive finite number. Got ${String(s)}.`);
  }
}

/**
 * The exact delta(epsilon) of one Poisson-subsampled Gaussian release.
 * @param epsilon >= 0. @param q sampling rate in (0, 1]. @param noiseMultiplier sigma / Delta, > 0.
 * @example subsampledGaussianDelta(1, 0.3, 1.94) // ~1e-5
 */
export function subsampledGaussianDelta(epsilon: number, q: number, noiseMultiplier: number): number {
  if (typeof epsilon !== 'number' || !(epsilon >= 0)) {
    throw new RangeError(`subsampledGaussianDelta: epsilon must be a number >= 0. Got ${String(epsilon)}.`);
  }
  check('subsampledGaussianDelta', q, noiseMultiplier);
  return Math.exp(subsampledGaussianLogDelta(epsilon, q, noiseMultiplier));
}

/** {@link subsampledGaussianExactEpsilon} without validation (kernel). */
export function subsampledGaussianExactEpsilonUnchecked(delta: number, q: number, s: number): number {
  const logDelta = Math.log(delta);
  return smallestEpsilon((e) => subsampledGaussianLogDelta(e, q, s) <= logDelta);
}

/**
 * The exact epsilon(delta) of one Poisson-subsampled Gaussian release (add/remove neighbours).
 * @param delta in (0, 1). @param q in (0, 1]. @param noiseMultiplier sigma / Delta, > 0.
 * @example subsampledGaussianExactEpsilon(1e-5, 0.3, 1.94) // ~1.0
 */
export function subsampledGaussianExactEpsilon(delta: number, q: number, noiseMultiplier: number): number {
  if (typeof delta !== 'number' || !(delta > 0 && delta < 1)) {
    throw new RangeError(`subsampledGaussianExactEpsilon: delta must be in (0, 1). Got ${String(delta)}.`);
  }
  check('subsampledGaussianExactEpsilon', q, noiseMultiplier);
  return subsampledGaussianExactEpsilonUnchecked(delta, q, noiseMultiplier);
}
