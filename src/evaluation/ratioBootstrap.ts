/**
 * The engine behind every estimator: the value sum(num) / sum(den) over rounds and its percentile
 * bootstrap interval (rounds resampled with replacement; Efron & Tibshirani 1993). Mean-type
 * estimators pass den = 1, self-normalised ones den = w. The resampled indices depend only on the
 * seed and n, so all estimators of one log share them (paired replicates, e.g. for ratios).
 * Cost: O(resamples x n).
 */
import { createRng } from '../random/index.js';
import type { BootstrapOptions, Estimate, EstimatorId } from './Estimate.js';

function checkOptions(o: BootstrapOptions): { resamples: number; seed: number; level: number } {
  const resamples = o.resamples ?? 1000;
  const seed = o.seed ?? 0;
  const level = o.level ?? 0.95;
  if (!Number.isSafeInteger(resamples) || resamples < 1) {
    throw new RangeError(`bootstrap: resamples must be a positive integer. Got ${resamples}.`);
  }
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new RangeError(`bootstrap: seed must be a non-negative safe integer. Got ${seed}.`);
  }
  if (!(level > 0 && level < 1)) throw new RangeError(`bootstrap: level must be in (0, 1). Got ${level}.`);
  return { resamples, seed, level };
}

/**
 * Quantile of sorted finite values (linear interpolation between order statistics, "type 7").
 *
 * @example
 * sortedQuantile(Float64Array.of(1, 2, 3, 4), 0.5); // returns 2.5
 */
export function sortedQuantile(sorted: Float64Array, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * p;
  const i = Math.floor(h);
  const j = Math.min(n - 1, i + 1);
  return sorted[i]! + (h - i) * (sorted[j]! - sorted[i]!);
}

/**
 * Percentile interval of replicates (non-finite ones ignored).
 *
 * @example
 * percentileInterval(Float64Array.of(3, 1, 2), 0.5); // returns [1.5, 2.5]
 */
export function percentileInterval(replicates: Float64Array, level: number): [number, number] {
  const finite = replicates.filter(Number.isFinite).sort();
  return [sortedQuantile(finite, (1 - level) / 2), sortedQuantile(finite, (1 + level) / 2)];
}

/**
 * @param num - per-round numerators, length n.
 * @param den - per-round denominators (null: all 1).
 * @example
 * ratioBootstrap('ipw', Float64Array.of(1, 0, 1, 1), null, 4, { resamples: 200, seed: 1 }).value; // returns 0.75
 */
export function ratioBootstrap(
  estimator: EstimatorId | 'logged',
  num: Float64Array,
  den: Float64Array | null,
  effectiveSampleSize: number,
  options: BootstrapOptions,
): Estimate {
  const { resamples, seed, level } = checkOptions(options);
  const n = num.length;
  let sn = 0;
  let sd = 0;
  for (let t = 0; t < n; t++) {
    sn += num[t]!;
    sd += den === null ? 1 : den[t]!;
  }
  const rng = createRng(seed, 'bootstrap');
  const replicates = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let bn = 0;
    let bd = 0;
    for (let i = 0; i < n; i++) {
      const t = rng.integer(n);
      bn += num[t]!;
      bd += den === null ? 1 : den[t]!;
    }
    replicates[b] = bd > 0 ? bn / bd : Number.NaN;
  }
  return Object.freeze({
    estimator,
    value: sd > 0 ? sn / sd : Number.NaN,
    interval: Object.freeze(percentileInterval(replicates, level)) as readonly [number, number],
    level,
    effectiveSampleSize,
    rounds: n,
    replicates,
  });
}
