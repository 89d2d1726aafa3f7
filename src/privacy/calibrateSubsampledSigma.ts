/**
 * The paper's Amp calibration, the 'rdp' accountant's calibrator for ONE Poisson-subsampled Gaussian
 * release (behind `calibrateGaussianNoise(..., 'rdp')` for q < 1, m = 1; kept bit for bit, so the
 * reproduction does not move).
 */

import { rdpOrderToEpsilon, rdpToEpsilon } from './conversion.js';
import { resolveOrders } from './orders.js';
import { subsampledGaussianRdp } from './subsampledGaussianRdp.js';
import { UnreachablePrivacyTargetError } from './UnreachablePrivacyTargetError.js';

const calibrationCache = new Map<string, { sigma: number; order: number }>();

/**
 * The paper's Amp calibration (kept bit for bit, so the reproduction does not move): the smallest
 * noise multiplier sigma such that
 * one Poisson-subsampled Gaussian release (rate q, sensitivity 1) is (epsilon, delta)-DP by the RDP
 * accountant on the order grid, to relative precision 1e-9. Throws UnreachablePrivacyTargetError
 * when even sigma -> infinity misses the target (the conversion term alone exceeds epsilon).
 *
 * Method (every order's epsilon is decreasing in sigma, so sigma* = min over orders of the sigma
 * that meets the target at that order): bisection on the integer orders of the grid (cheap exact
 * binomial sums) gives sigma_int; a fractional order can only lower sigma* if it already meets the
 * target at sigma_int, and only those orders are bisected individually (their series are costly).
 * Results are cached per (epsilon, delta, q, grid, conversion): experiment runs create many
 * policies with the same budget.
 *
 * @example
 * calibrateSubsampledSigma(1, 1e-5, 0.3, 'paper', 'classic').sigma; // returns the sigma_amp of q = 0.3
 */
export function calibrateSubsampledSigma(
  epsilon: number,
  delta: number,
  q: number,
  orders: 'paper' | 'extended',
  conversion: 'classic' | 'improved',
): { sigma: number; order: number } {
  const key = `${epsilon}|${delta}|${q}|${orders}|${conversion}`;
  const hit = calibrationCache.get(key);
  if (hit !== undefined) return hit;
  const grid = resolveOrders(orders);
  const floor = rdpToEpsilon(grid, new Float64Array(grid.length), delta, conversion).epsilon;
  if (floor >= epsilon) {
    throw new UnreachablePrivacyTargetError(
      `AdaPrivate-TS-Amp: epsilon ${epsilon} at delta ${delta} is unreachable with the '${orders}' order grid: the conversion term alone gives ${floor.toPrecision(4)}. Use orders 'extended' or a larger epsilon.`,
      floor,
    );
  }
  const ints = grid.filter((a) => Number.isInteger(a));
  const fracs = grid.filter((a) => !Number.isInteger(a));
  const epsAt = (sigma: number, set: readonly number[]): number => {
    let best = Number.POSITIVE_INFINITY;
    for (const a of set)
      best = Math.min(best, rdpOrderToEpsilon(subsampledGaussianRdp(q, sigma, a), a, delta, conversion));
    return best;
  };
  const solve = (set: readonly number[], hiStart: number): number => {
    let hi = hiStart;
    while (epsAt(hi, set) > epsilon) {
      hi *= 2;
      if (hi > 1e12) return Number.POSITIVE_INFINITY;
    }
    let lo = hi / 2;
    while (epsAt(lo, set) <= epsilon) {
      hi = lo;
      lo /= 2;
      if (lo < 1e-12) return hi;
    }
    for (let i = 0; i < 200 && hi / lo - 1 > 1e-10; i++) {
      const mid = Math.sqrt(lo * hi);
      if (epsAt(mid, set) <= epsilon) hi = mid;
      else lo = mid;
    }
    return hi;
  };
  let sigma = ints.length > 0 ? solve(ints, 1) : Number.POSITIVE_INFINITY;
  for (const a of fracs) {
    const start = Number.isFinite(sigma) ? sigma : 1;
    if (Number.isFinite(sigma) && epsAt(sigma, [a]) > epsilon) continue; // cannot improve on sigma
    sigma = Math.min(sigma, solve([a], start));
  }
  if (!Number.isFinite(sigma)) {
    throw new UnreachablePrivacyTargetError(
      'AdaPrivate-TS-Amp: no sigma below 1e12 meets the target.',
      floor,
    );
  }
  let order = grid[0]!;
  let bestEps = Number.POSITIVE_INFINITY;
  for (const a of grid) {
    const e = rdpOrderToEpsilon(subsampledGaussianRdp(q, sigma, a), a, delta, conversion);
    if (e < bestEps) {
      bestEps = e;
      order = a;
    }
  }
  const result = Object.freeze({ sigma, order });
  calibrationCache.set(key, result);
  return result;
}
