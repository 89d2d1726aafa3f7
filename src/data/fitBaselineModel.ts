import type { RatingsData } from './RatingsData.js';

/** The ratings a baseline model is fitted on or scored against (a subset of loaded ratings). */
export type RatingTriplets = Pick<
  RatingsData,
  'count' | 'users' | 'items' | 'ratings' | 'userIds' | 'itemIds'
>;

/**
 * A baseline rating model r(u, i) = mu + b_u + b_i (Koren 2008, "Factorization meets the
 * neighborhood", Sec. 2.1): global mean and user and item biases shrunk towards 0 by `lambda`.
 */
export interface BaselineModel {
  /** Global mean of the fitted ratings. */
  readonly mu: number;
  /** b_u per dense user index (0 for users without fitted ratings). */
  readonly userBias: Float64Array;
  /** b_i per dense item index (0 for items without fitted ratings). */
  readonly itemBias: Float64Array;
  /** Shrinkage of both bias terms (pseudo-ratings at the mean). */
  readonly lambda: number;
}

/**
 * Fits a {@link BaselineModel} on the ratings where `keep(k)` is true, by a few alternating passes
 * of the shrunk means b_i = sum (r - mu - b_u) / (lambda + n_i), b_u = sum (r - mu - b_i) / (lambda + n_u)
 * (each pass is the exact minimiser of the regularised squared error in one block given the other).
 *
 * Cost: O(passes x kept ratings). Throws when no rating is kept or lambda is negative.
 * @example
 * fitBaselineModel(data, () => true, 10).mu; // returns the mean rating, e.g. 3.5
 */
export function fitBaselineModel(
  data: RatingTriplets,
  keep: (k: number) => boolean,
  lambda: number,
  passes = 4,
): BaselineModel {
  if (!(lambda >= 0) || !Number.isFinite(lambda))
    throw new Error(`fitBaselineModel: lambda must be a finite number >= 0. Got ${lambda}.`);
  const nUsers = data.userIds.length;
  const nItems = data.itemIds.length;
  let sum = 0;
  let n = 0;
  const nU = new Float64Array(nUsers);
  const nI = new Float64Array(nItems);
  for (let k = 0; k < data.count; k++) {
    if (!keep(k)) continue;
    sum += data.ratings[k]!;
    n++;
    nU[data.users[k]!]!++;
    nI[data.items[k]!]!++;
  }
  if (n === 0) throw new Error('fitBaselineModel: no rating to fit.');
  const mu = sum / n;
  const bu = new Float64Array(nUsers);
  const bi = new Float64Array(nItems);
  const acc = new Float64Array(Math.max(nUsers, nItems));
  for (let pass = 0; pass < passes; pass++) {
    acc.fill(0, 0, nItems);
    for (let k = 0; k < data.count; k++) {
      if (!keep(k)) continue;
      acc[data.items[k]!]! += data.ratings[k]! - mu - bu[data.users[k]!]!;
    }
    for (let i = 0; i < nItems; i++) bi[i] = nI[i]! > 0 ? acc[i]! / (lambda + nI[i]!) : 0;
    acc.fill(0, 0, nUsers);
    for (let k = 0; k < data.count; k++) {
      if (!keep(k)) continue;
      acc[data.users[k]!]! += data.ratings[k]! - mu - bi[data.items[k]!]!;
    }
    for (let u = 0; u < nUsers; u++) bu[u] = nU[u]! > 0 ? acc[u]! / (lambda + nU[u]!) : 0;
  }
  return { mu, userBias: bu, itemBias: bi, lambda };
}

/**
 * Root-mean-square error of a baseline model's predictions on the ratings where `keep(k)` is true
 * (NaN when none is kept).
 * @example
 * baselineRmse(model, data, (k) => role[k] === 2); // returns e.g. 0.87
 */
export function baselineRmse(
  model: BaselineModel,
  data: RatingTriplets,
  keep: (k: number) => boolean,
): number {
  let se = 0;
  let n = 0;
  for (let k = 0; k < data.count; k++) {
    if (!keep(k)) continue;
    const e = data.ratings[k]! - model.mu - model.userBias[data.users[k]!]! - model.itemBias[data.items[k]!]!;
    se += e * e;
    n++;
  }
  return n === 0 ? Number.NaN : Math.sqrt(se / n);
}

/** The shrinkage grid searched by {@link tuneBaselineModel}. */
export const BASELINE_LAMBDA_GRID: readonly number[] = [0, 1, 2, 5, 10, 25, 50, 100];

/**
 * Chooses the shrinkage on a validation part: fits on `fit`, scores the RMSE on `validation` for
 * every lambda of `grid`, and returns the model of the smallest validation RMSE (ties: the larger
 * lambda) with the whole table.
 *
 * Cost: |grid| fits and scores.
 * @example
 * tuneBaselineModel(data, (k) => role[k] === 0, (k) => role[k] === 2).model.lambda; // returns e.g. 5
 */
export function tuneBaselineModel(
  data: RatingTriplets,
  fit: (k: number) => boolean,
  validation: (k: number) => boolean,
  grid: readonly number[] = BASELINE_LAMBDA_GRID,
): { readonly model: BaselineModel; readonly table: readonly { lambda: number; rmse: number }[] } {
  let best: BaselineModel | null = null;
  let bestRmse = Number.POSITIVE_INFINITY;
  const table: { lambda: number; rmse: number }[] = [];
  for (const lambda of grid) {
    const m = fitBaselineModel(data, fit, lambda);
    const rmse = baselineRmse(m, data, validation);
    table.push({ lambda, rmse });
    if (best === null || rmse <= bestRmse) {
      best = m;
      bestRmse = rmse;
    }
  }
  if (best === null) throw new Error('tuneBaselineModel: grid must not be empty.');
  return { model: best, table };
}
