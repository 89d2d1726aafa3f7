/**
 * Paired two-sided Student t-test of a - b on common seeds (the paper's TS vs UCB comparison).
 * p-values from @stdlib/stats-base-dists-t-cdf, CI from @stdlib/stats-base-dists-t-quantile.
 */
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import type { PairedTTest } from './types.js';

/** Values keyed by seed. */
export type BySeed =
  | ReadonlyMap<number, number>
  | { readonly perSeed: readonly number[]; readonly seeds: readonly number[] };

function toMap(x: BySeed): ReadonlyMap<number, number> {
  if (x instanceof Map) return x;
  const s = x as { perSeed: readonly number[]; seeds: readonly number[] };
  return new Map(s.seeds.map((seed, i) => [seed, s.perSeed[i]!]));
}

/**
 * Paired t-test of `a` against `b` on the seeds both have (sorted ascending).
 * With fewer than 2 common seeds, or zero variance of the differences, `t` and `pValue` are NaN
 * unless the differences are all equal and non-zero (then t = +-Infinity, p = 0).
 *
 * @example
 * pairedTTest({ seeds: [1, 2, 3, 4], perSeed: [1, 2, 3, 5] }, { seeds: [1, 2, 3, 4], perSeed: [1, 1, 2, 3] }).pValue;
 * // returns ~0.0917 (scipy.stats.ttest_rel)
 */
export function pairedTTest(a: BySeed, b: BySeed): PairedTTest {
  const ma = toMap(a);
  const mb = toMap(b);
  const seeds = [...ma.keys()].filter((s) => mb.has(s)).sort((x, y) => x - y);
  const n = seeds.length;
  const diffs = seeds.map((s) => ma.get(s)! - mb.get(s)!);
  let mean = 0;
  for (const d of diffs) mean += d;
  mean = n > 0 ? mean / n : Number.NaN;
  if (n < 2)
    return {
      n,
      meanDifference: mean,
      t: Number.NaN,
      df: Math.max(n - 1, 0),
      pValue: Number.NaN,
      ci95: [Number.NaN, Number.NaN],
      seeds,
    };
  let ss = 0;
  for (const d of diffs) ss += (d - mean) * (d - mean);
  const se = Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
  const df = n - 1;
  let t: number;
  let pValue: number;
  if (se === 0) {
    t = mean === 0 ? Number.NaN : mean > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    pValue = mean === 0 ? Number.NaN : 0;
  } else {
    t = mean / se;
    pValue = Math.min(1, 2 * tCdf(-Math.abs(t), df));
  }
  const half = tQuantile(0.975, df) * se;
  return { n, meanDifference: mean, t, df, pValue, ci95: [mean - half, mean + half], seeds };
}
