/**
 * Clopper-Pearson (exact binomial) confidence bounds, from the beta quantile of
 * @stdlib/stats-base-dists-beta-quantile.
 */
import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';

/**
 * One-sided upper bound on a binomial proportion: P(p <= bound) >= 1 - gamma for k successes in n.
 *
 * @example
 * clopperPearsonUpper(0, 1000, 0.025); // returns ~0.00368
 */
export function clopperPearsonUpper(k: number, n: number, gamma: number): number {
  if (k >= n) return 1;
  return betaQuantile(1 - gamma, k + 1, n - k);
}

/**
 * One-sided lower bound on a binomial proportion: P(p >= bound) >= 1 - gamma for k successes in n.
 *
 * @example
 * clopperPearsonLower(1000, 1000, 0.025); // returns ~0.99632
 */
export function clopperPearsonLower(k: number, n: number, gamma: number): number {
  if (k <= 0) return 0;
  return betaQuantile(gamma, k, n - k + 1);
}
