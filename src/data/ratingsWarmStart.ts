import { cholesky, cholSolve } from '../linalg/index.js';
import { loadFeaturesCached } from './loadFeaturesCached.js';
import type { RatingsEnvOptions } from './RatingsEnvOptions.js';
import { resolveRewardRule } from './ratingReward.js';

/**
 * The warm-start prior mean theta_0 of the real-data experiments (SPEC section 5): ridge regression
 * of the reward on the arm features over a sample of the training split,
 * theta_0 = (ridge I + sum x x^T)^{-1} sum r x, with the reward rule of `options` (any threshold is
 * exact, from per-rating-level sums stored in the features file).
 *
 * Cost: O(d^3) once (Cholesky of a d x d matrix).
 * @param ridge - ridge penalty, default 1; a positive number.
 * @example
 * ratingsWarmStart({ featuresFile: 'ml.features' }).length; // returns 52
 */
export function ratingsWarmStart(options: RatingsEnvOptions, ridge = 1): Float64Array {
  if (!(ridge > 0) || !Number.isFinite(ridge))
    throw new Error(`ratingsWarmStart: ridge must be a positive number. Got ${ridge}.`);
  const f = loadFeaturesCached(options.featuresFile);
  const rule = resolveRewardRule(options, f.header);
  const d = f.dim;
  const b = new Float64Array(d);
  if (rule.mode === 'scaled') {
    b.set(f.bScaled);
  } else {
    for (let i = 0; i < f.levels.length; i++) {
      if (f.levels[i]! < rule.threshold) continue;
      for (let c = 0; c < d; c++) b[c]! += f.bLevels[i * d + c]!;
    }
  }
  // (ridge I + G) theta = b by Cholesky (G is a Gram matrix and ridge > 0, so it is SPD)
  const a = new Float64Array(d * d);
  for (let i = 0; i < d * d; i++) a[i] = f.gram[i]!;
  for (let i = 0; i < d; i++) a[i * d + i] = a[i * d + i]! + ridge;
  if (!cholesky(a, d, a)) {
    throw new Error(
      `ratingsWarmStart: ${options.featuresFile}: the training Gram matrix is not positive definite.`,
    );
  }
  const theta = new Float64Array(d);
  cholSolve(a, d, b, theta);
  return theta;
}
