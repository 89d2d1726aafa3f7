/**
 * Gaussian differential privacy (Dong, Roth & Su 2019) and the exact privacy curve of the Gaussian
 * mechanism (Balle & Wang 2018, Theorem 8). A Gaussian release with L2 sensitivity Delta and noise
 * N(0, sigma^2 I) is mu-GDP with mu = Delta / sigma, and any adaptive sequential composition of
 * mu_i-GDP Gaussian releases is mu-GDP with mu^2 = sum mu_i^2 (Dong, Roth & Su 2019, Cor. 3.3). Its
 * exact (epsilon, delta) curve is
 *   delta(epsilon) = Phi(-epsilon/mu + mu/2) - e^epsilon Phi(-epsilon/mu - mu/2),
 * with no conversion loss. Evaluated in log space through the scaled complementary error function
 * (`logHalfErfc`), so it keeps full relative precision down to delta ~ 1e-300.
 * Kernels (`gaussianDeltaUnchecked`, ...) never throw; the checked forms validate their arguments.
 * Cost: O(1) for delta(epsilon); epsilon(delta) and mu(epsilon, delta) bisect (<= 200 steps, ~20 us).
 */
import { logHalfErfc } from './logNormalTail.js';

const SQRT1_2 = Math.SQRT1_2;

/** ln Phi(x), the log of the standard normal CDF, accurate in both tails. */
export function logNormalCdf(x: number): number {
  return logHalfErfc(-x * SQRT1_2);
}

/** ln(e^a - e^b) for a >= b (0 probability gives -Infinity). */
export function logDiffExp(a: number, b: number): number {
  if (a === Number.NEGATIVE_INFINITY) return a;
  const d = b - a;
  if (!(d < 0)) return Number.NEGATIVE_INFINITY;
  return a + Math.log(-Math.expm1(d));
}

/** {@link gaussianDelta} without validation (kernel). */
export function gaussianDeltaUnchecked(epsilon: number, mu: number): number {
  if (mu === 0) return 0;
  return Math.exp(gaussianLogDelta(epsilon, mu));
}

function checkMu(where: string, mu: number): void {
  if (typeof mu !== 'number' || !(mu >= 0) || !Number.isFinite(mu)) {
    throw new RangeError(`${where}: mu must be a finite number >= 0. Got ${String(mu)}.`);
  }
}

function checkUnit(where: string, name: string, v: number): void {
  if (typeof v !== 'number' || !(v > 0 && v < 1)) {
    throw new RangeError(`${where}: ${name} must be in (0, 1). Got ${String(v)}.`);
  }
}

/**
 * The exact delta(epsilon) of a mu-GDP mechanism (the Gaussian mechanism with Delta / sigma = mu).
 * @param epsilon >= 0. @param mu >= 0 (0: no release).
 * @example gaussianDelta(1, 1 / 3.73) // ~1.0e-5
 */
export function gaussianDelta(epsilon: number, mu: number): number {
  if (typeof epsilon !== 'number' || !(epsilon >= 0)) {
    throw new RangeError(`gaussianDelta: epsilon must be a number >= 0. Got ${String(epsilon)}.`);
  }
  checkMu('gaussianDelta', mu);
  return gaussianDeltaUnchecked(epsilon, mu);
}

/**
 * The smallest epsilon >= 0 with meets(epsilon) true, for a predicate that is monotone (false below
 * some point, true above), by doubling and bisection to relative precision 1e-13. The upper end is
 * returned, so meets(result) holds (Infinity when no epsilon up to 1e6 does). Kernel: never throws.
 */
export function smallestEpsilon(meets: (epsilon: number) => boolean): number {
  if (meets(0)) return 0;
  let lo = 0;
  let hi = 1;
  while (!meets(hi)) {
    lo = hi;
    hi *= 2;
    if (hi > 1e6) return Number.POSITIVE_INFINITY;
  }
  for (let i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
    const mid = 0.5 * (lo + hi);
    if (meets(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** ln delta(epsilon) of a mu-GDP mechanism (kernel). */
export function gaussianLogDelta(epsilon: number, mu: number): number {
  if (mu === 0) return Number.NEGATIVE_INFINITY;
  const a = logNormalCdf(-epsilon / mu + mu / 2);
  const b = logNormalCdf(-epsilon / mu - mu / 2);
  return logDiffExp(a, epsilon + b);
}

/** {@link gaussianEpsilon} without validation (kernel). */
export function gaussianEpsilonUnchecked(delta: number, mu: number): number {
  if (mu === 0) return 0;
  const logDelta = Math.log(delta);
  // compared in log space: exact down to the smallest deltas
  return smallestEpsilon((e) => gaussianLogDelta(e, mu) <= logDelta);
}

/**
 * The exact epsilon(delta) of a mu-GDP mechanism: the smallest epsilon with delta(epsilon) <= delta.
 * @param delta in (0, 1). @param mu >= 0.
 * @example gaussianEpsilon(1e-5, 1 / 3.73) // ~1.0
 */
export function gaussianEpsilon(delta: number, mu: number): number {
  checkUnit('gaussianEpsilon', 'delta', delta);
  checkMu('gaussianEpsilon', mu);
  return gaussianEpsilonUnchecked(delta, mu);
}

/**
 * The largest mu whose exact curve meets (epsilon, delta): delta(epsilon; mu) increases in mu, so
 * bisection in log mu to relative precision 1e-13; the lower end is returned, so the result meets
 * the target. Kernel: never throws (epsilon >= 0, delta in (0, 1)).
 */
export function gaussianMuForTargetUnchecked(epsilon: number, delta: number): number {
  const logDelta = Math.log(delta);
  const meets = (mu: number): boolean => gaussianLogDelta(epsilon, mu) <= logDelta;
  let lo = 1;
  let hi = 1;
  if (meets(1)) {
    while (meets(hi)) {
      lo = hi;
      hi *= 2;
      if (hi > 1e8) return lo;
    }
  } else {
    while (!meets(lo)) {
      hi = lo;
      lo /= 2;
      if (lo < 1e-300) return 0;
    }
  }
  for (let i = 0; i < 200 && hi - lo > 1e-13 * lo; i++) {
    const mid = Math.sqrt(lo * hi);
    if (meets(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * The largest mu (Delta / sigma of one Gaussian release, or the composed sqrt(sum mu_i^2)) that is
 * (epsilon, delta)-DP by the exact curve.
 * @param epsilon > 0. @param delta in (0, 1).
 * @example gaussianMuForTarget(1, 1e-5) // ~0.2683 (sigma ~3.73 at sensitivity 1)
 */
export function gaussianMuForTarget(epsilon: number, delta: number): number {
  if (typeof epsilon !== 'number' || !(epsilon > 0) || !Number.isFinite(epsilon)) {
    throw new RangeError(
      `gaussianMuForTarget: epsilon must be a positive finite number. Got ${String(epsilon)}.`,
    );
  }
  checkUnit('gaussianMuForTarget', 'delta', delta);
  return gaussianMuForTargetUnchecked(epsilon, delta);
}
