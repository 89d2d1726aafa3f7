/**
 * The (epsilon, delta) curve of mu-Gaussian differential privacy (Dong, Roth & Su 2022): a
 * mechanism is mu-GDP when no test tells its neighbouring outputs apart better than N(0, 1) from
 * N(mu, 1). A Gaussian mechanism with sensitivity Delta and noise sigma is (Delta / sigma)-GDP, and
 * Gaussian releases composed add mu^2 (so rho-zCDP from Gaussian releases is sqrt(2 rho)-GDP).
 * delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2); this solves it for eps.
 */
import { logHalfErfc } from '../privacy/logNormalTail.js';

/** Phi(-x) = P(N(0, 1) > x), accurate in the far tail. */
function upperTail(x: number): number {
  return Math.exp(logHalfErfc(x / Math.SQRT2));
}

/**
 * delta(eps) of mu-GDP.
 *
 * @example
 * gdpDelta(0.7416, 0.20406); // returns ~1e-5
 */
export function gdpDelta(epsilon: number, mu: number): number {
  if (mu <= 0) return 0;
  return upperTail(epsilon / mu - mu / 2) - Math.exp(epsilon) * upperTail(epsilon / mu + mu / 2);
}

/**
 * The smallest eps with delta(eps) <= delta for mu-GDP (0 when mu <= 0), by bisection to 1e-10.
 * `side` 'upper' (default) returns the upper end of the final bracket (delta(result) <= delta holds);
 * 'lower' its lower end (never above the true value: what a lower bound reports).
 *
 * @example
 * gdpEpsilon(0.20406, 1e-5); // returns ~0.7416 (the Gaussian release of AdaPrivate-TS at eps = 1)
 */
export function gdpEpsilon(mu: number, delta: number, side: 'upper' | 'lower' = 'upper'): number {
  if (!(mu > 0)) return 0;
  if (gdpDelta(0, mu) <= delta) return 0;
  let lo = 0;
  let hi = 1;
  while (gdpDelta(hi, mu) > delta) hi *= 2;
  while (hi - lo > 1e-10 * Math.max(1, hi)) {
    const mid = 0.5 * (lo + hi);
    if (gdpDelta(mid, mu) > delta) lo = mid;
    else hi = mid;
  }
  return side === 'lower' ? lo : hi;
}
