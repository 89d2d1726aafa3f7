import { createRng } from '../random/index.js';
import { buildCsr } from './CsrMatrix.js';
import { DEFAULT_FEATURE_PARAMS } from './featureDefaults.js';
import type { FeatureParams, FeaturesHeader, PreparedFeatures } from './PreparedFeatures.js';

export { DEFAULT_FEATURE_PARAMS };

import type { RatingsData } from './RatingsData.js';
import { ratingsFormatInfo } from './RatingsFormat.js';
import { randomizedSvd } from './randomizedSvd.js';
import { splitRatings } from './splitRatings.js';
import { unitFeature } from './unitFeature.js';

/** Progress of a long step: `step` names it, done/total in its own units. */
export type StepProgress = (step: string, done: number, total: number) => void;

/**
 * Validates and completes feature parameters; throws naming the option, value and rule.
 * @example
 * resolveFeatureParams({ rank: 20 }).evalFraction; // returns 0.5
 */
export function resolveFeatureParams(p: Partial<FeatureParams>): FeatureParams {
  const r = { ...DEFAULT_FEATURE_PARAMS, ...p };
  const int = (name: string, v: number, min: number): void => {
    if (!Number.isSafeInteger(v) || v < min)
      throw new Error(`prepare: ${name} must be an integer >= ${min}. Got ${v}.`);
  };
  int('rank', r.rank, 1);
  int('seed', r.seed, 0);
  int('oversampling', r.oversampling, 0);
  int('powerIterations', r.powerIterations, 0);
  int('ridgeSample', r.ridgeSample, 1);
  if (!(r.evalFraction > 0 && r.evalFraction < 1)) {
    throw new Error(`prepare: evalFraction must be a number in (0, 1). Got ${r.evalFraction}.`);
  }
  return r;
}

/**
 * The feature pipeline (SPEC section 5) on loaded ratings: a seeded per-user split into training and
 * bandit parts, the sparse training matrix (users x items, raw ratings), its rank-d randomised SVD,
 * arm features x = normalise(u_user ⊙ v_item) for the held-out ratings, and the warm-start ridge
 * statistics (G = sum x x^T and the reward sums) on a sample of the training ratings.
 *
 * Held-out ratings whose user or item has no training rating get no feature and are dropped
 * (counted in `evalDropped`).
 *
 * Cost: O(nnz) for the split and matrix, the SVD's O(nnz d (q + 1)), O(ridgeSample d^2) for ridge.
 * @example
 * const f = prepareFeatures(data, resolveFeatureParams({ rank: 10 }), { sha256: '...', bytes: 1 });
 * f.rank; // returns 10
 */
export function prepareFeatures(
  data: RatingsData,
  params: FeatureParams,
  source: { readonly sha256: string; readonly bytes: number },
  onProgress?: StepProgress,
  timings: Record<string, number> = {},
): PreparedFeatures {
  const info = ratingsFormatInfo(data.format);
  const nUsers = data.userIds.length;
  const nItems = data.itemIds.length;
  const rank = params.rank;
  if (rank > Math.min(nUsers, nItems)) {
    throw new Error(
      `prepare: rank must be at most min(users, items) = ${Math.min(nUsers, nItems)} for ${data.source}. Got ${rank}.`,
    );
  }
  let t0 = performance.now();
  const role = splitRatings(data, { evalFraction: params.evalFraction, seed: params.seed });
  const train = buildCsr(nUsers, nItems, data.users, data.items, data.ratings, (k) => role[k] === 0);
  timings.split = (performance.now() - t0) / 1000;

  t0 = performance.now();
  const svd = randomizedSvd(
    train,
    {
      rank,
      oversampling: params.oversampling,
      powerIterations: params.powerIterations,
      onProgress: (d, t) => onProgress?.('svd', d, t),
    },
    createRng(params.seed, 'svd'),
  );
  timings.svd = (performance.now() - t0) / 1000;

  t0 = performance.now();
  const x = new Float64Array(rank);
  // held-out ratings with a feature, grouped by user (the bandit's arms)
  let dropped = 0;
  const hasFeature = (k: number): boolean =>
    unitFeature(svd.u, data.users[k]! * rank, svd.v, data.items[k]! * rank, rank, x, 0) > 0;
  const keepEval = new Uint8Array(data.count);
  let nEval = 0;
  for (let k = 0; k < data.count; k++) {
    if (role[k] !== 1) continue;
    if (hasFeature(k)) {
      keepEval[k] = 1;
      nEval++;
    } else {
      dropped++;
    }
  }
  const evalCsr = buildCsr(nUsers, nItems, data.users, data.items, data.ratings, (k) => keepEval[k] === 1);

  // ridge statistics on a seeded sample of training ratings
  const nTrain = train.colIdx.length;
  const take = Math.min(params.ridgeSample, nTrain);
  const rng = createRng(params.seed, 'ridge');
  const gram = new Float64Array(rank * rank);
  const bScaled = new Float64Array(rank);
  const levelIndex = new Map<number, number>();
  const levelSums: Float64Array[] = [];
  const scale = 1 / (info.ratingMax - info.ratingMin);
  let rows = 0;
  let seen = 0;
  for (let k = 0; k < data.count; k++) {
    if (role[k] !== 0) continue;
    // selection sampling (Knuth's Algorithm S): exactly `take` uniformly chosen training ratings
    const chosen = (nTrain - seen) * rng.uniform() < take - rows;
    seen++;
    if (!chosen) continue;
    rows++;
    if (!hasFeature(k)) continue;
    const rating = data.ratings[k]!;
    for (let a = 0; a < rank; a++) {
      const xa = x[a]!;
      const o = a * rank;
      for (let b = a; b < rank; b++) gram[o + b]! += xa * x[b]!;
    }
    const sr = (rating - info.ratingMin) * scale;
    for (let a = 0; a < rank; a++) bScaled[a]! += sr * x[a]!;
    let li = levelIndex.get(rating);
    if (li === undefined) {
      li = levelSums.length;
      levelIndex.set(rating, li);
      levelSums.push(new Float64Array(rank));
    }
    const sums = levelSums[li]!;
    for (let a = 0; a < rank; a++) sums[a]! += x[a]!;
    if ((rows & 0xffff) === 0) onProgress?.('ridge', rows, take);
  }
  for (let a = 0; a < rank; a++) for (let b = 0; b < a; b++) gram[a * rank + b] = gram[b * rank + a]!;
  const sortedLevels = [...levelIndex.keys()].sort((p, q) => p - q);
  const levels = Float64Array.from(sortedLevels);
  const bLevels = new Float64Array(levels.length * rank);
  for (let i = 0; i < sortedLevels.length; i++) {
    bLevels.set(levelSums[levelIndex.get(sortedLevels[i]!)!]!, i * rank);
  }
  timings.features = (performance.now() - t0) / 1000;

  const header: FeaturesHeader = {
    version: 1,
    source: { file: data.source, bytes: source.bytes, sha256: source.sha256, format: data.format },
    params,
    family: info.family,
    ratingMin: info.ratingMin,
    ratingMax: info.ratingMax,
    defaultRewardMode: info.defaultRewardMode,
    defaultThreshold: info.defaultThreshold,
    counts: {
      users: nUsers,
      items: nItems,
      ratings: data.count,
      badRows: data.badRows,
      train: nTrain,
      eval: nEval,
      evalDropped: dropped,
      ridgeRows: rows,
    },
    singularValues: Array.from(svd.s),
    createdAt: new Date().toISOString(),
    timings,
  };
  return {
    header,
    rank,
    userFactors: svd.u,
    itemFactors: svd.v,
    evalPtr: evalCsr.rowPtr,
    evalItems: evalCsr.colIdx,
    evalRatings: evalCsr.values,
    gram,
    bScaled,
    levels,
    bLevels,
  };
}
