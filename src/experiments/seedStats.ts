/**
 * Mean, sample standard deviation and Student-t 95% confidence interval of one metric over seeds.
 * The t quantile comes from @stdlib/stats-base-dists-t-quantile.
 */
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import type { SeedStats } from './types.js';

/**
 * Summary of `values` (one per seed, in `seeds` order).
 *
 * @example
 * seedStats([1, 2, 3], [1, 2, 3]).ci95; // returns ~[-0.2841, 4.2841] (2 +- 4.3027 * 1/sqrt(3))
 */
export function seedStats(values: readonly number[], seeds: readonly number[]): SeedStats {
  const n = values.length;
  if (n === 0) throw new RangeError('seedStats: values must not be empty.');
  if (seeds.length !== n) throw new RangeError(`seedStats: ${n} values but ${seeds.length} seeds.`);
  let mean = 0;
  for (const v of values) mean += v;
  mean /= n;
  let ss = 0;
  for (const v of values) ss += (v - mean) * (v - mean);
  const std = n > 1 ? Math.sqrt(ss / (n - 1)) : 0;
  const half = n > 1 ? tQuantile(0.975, n - 1) * (std / Math.sqrt(n)) : 0;
  return {
    n,
    mean,
    std,
    ci95: [mean - half, mean + half],
    perSeed: [...values],
    seeds: [...seeds],
  };
}
