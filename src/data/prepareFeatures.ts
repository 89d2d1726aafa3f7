import { createRng } from '../random/index.js';
import { buildCsr } from './CsrMatrix.js';
import { DEFAULT_FEATURE_PARAMS } from './featureDefaults.js';
import type { FeatureParams, FeaturesHeader, PreparedFeatures } from './PreparedFeatures.js';

export { DEFAULT_FEATURE_PARAMS };

import { ArmFeatureMap } from './ArmFeatureMap.js';
import { tuneBaselineModel } from './fitBaselineModel.js';
import type { RatingsData } from './RatingsData.js';
import { ratingsFormatInfo } from './RatingsFormat.js';
import { randomizedSvd } from './randomizedSvd.js';
import { splitRatings } from './splitRatings.js';

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
  if (r.construction !== 'biased' && r.construction !== 'unit-product') {
    throw new Error(
      `prepare: construction must be 'biased' or 'unit-product'. Got ${JSON.stringify(r.construction)}.`,
    );
  }
  if (!(r.validationFraction > 0 && r.validationFraction < 1)) {
    throw new Error(`prepare: validationFraction must be a number in (0, 1). Got ${r.validationFraction}.`);
  }
  if (!(r.evalFraction > 0 && r.evalFraction < 1)) {
    throw new Error(`prepare: evalFraction must be a number in (0, 1). Got ${r.evalFraction}.`);
  }
  return r;
}

/**
 * The feature pipeline (SPEC section 5, docs/data.md) on loaded ratings:
 * 1. a seeded per-user split into training and bandit (evaluation) parts, and a seeded per-user
 *    validation part of the training split (`validationFraction`); the rest is the fit part;
 * 2. a baseline model mu + b_u + b_i on the fit part, its shrinkage chosen by validation RMSE;
 * 3. a rank-r randomised SVD of the fit part's residuals r - mu - b_u - b_i (`biased`) or of its raw
 *    ratings (`unit-product`);
 * 4. arm features (see {@link ArmFeatureMap}) with global constants taken over every prepared pair;
 * 5. the warm-start ridge statistics (G = sum x x^T and reward sums) on a sample of the fit part.
 *
 * Evaluation and validation ratings whose user or item has no fit rating get no feature and are
 * dropped (counted in `evalDropped`; validation ones are simply not kept).
 *
 * Cost: O(nnz) for the split, matrix and baseline (x 8 shrinkages x 4 passes), the SVD's
 * O(nnz r (q + 1)), O(nnz r) for the constants, O(ridgeSample d^2) for ridge.
 * @example
 * const f = prepareFeatures(data, resolveFeatureParams({ rank: 10 }), { sha256: '...', bytes: 1 });
 * f.dim; // returns 12
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
  // validation part: a per-user share of the training ratings (role 2); the rest (role 0) is fitted
  const valRole = splitRatings(data, {
    evalFraction: params.validationFraction,
    seed: params.seed,
    stream: 'validation',
    among: (k) => role[k] === 0,
  });
  for (let k = 0; k < data.count; k++) if (role[k] === 0 && valRole[k] === 1) role[k] = 2;
  const isFit = (k: number): boolean => role[k] === 0;
  const tuned = tuneBaselineModel(data, isFit, (k) => role[k] === 2);
  const baseline = tuned.model;
  const biased = params.construction === 'biased';
  const residual = biased
    ? (() => {
        const r = new Float32Array(data.count);
        for (let k = 0; k < data.count; k++) {
          r[k] =
            data.ratings[k]! -
            baseline.mu -
            baseline.userBias[data.users[k]!]! -
            baseline.itemBias[data.items[k]!]!;
        }
        return r;
      })()
    : data.ratings;
  const train = buildCsr(nUsers, nItems, data.users, data.items, residual, isFit);
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
  // who has fit data (a feature needs both the user's and the item's factor)
  const userSeen = new Uint8Array(nUsers);
  const itemSeen = new Uint8Array(nItems);
  for (let k = 0; k < data.count; k++) {
    if (!isFit(k)) continue;
    userSeen[data.users[k]!] = 1;
    itemSeen[data.items[k]!] = 1;
  }
  const userFactors = svd.u;
  if (biased) {
    for (let u = 0; u < nUsers; u++) for (let c = 0; c < rank; c++) userFactors[u * rank + c]! *= svd.s[c]!;
  }
  const usable = (k: number): boolean => userSeen[data.users[k]!] === 1 && itemSeen[data.items[k]!] === 1;
  // global constants over every pair that can become a feature (fit, validation and evaluation)
  let productScale = 1;
  let biasScale = 1;
  if (biased) {
    let maxSq = 0;
    for (let k = 0; k < data.count; k++) {
      if (!usable(k)) continue;
      const uo = data.users[k]! * rank;
      const io = data.items[k]! * rank;
      let sq = 0;
      for (let c = 0; c < rank; c++) {
        const p = userFactors[uo + c]! * svd.v[io + c]!;
        sq += p * p;
      }
      if (sq > maxSq) maxSq = sq;
    }
    let maxB = 0;
    for (let i = 0; i < nItems; i++) maxB = Math.max(maxB, Math.abs(baseline.itemBias[i]!));
    productScale = maxSq > 0 ? Math.sqrt(maxSq) : 1;
    biasScale = maxB > 0 ? maxB : 1;
  }
  const construction = { kind: params.construction, productScale, biasScale };
  const itemBias = biased ? Float64Array.from(baseline.itemBias) : new Float64Array(nItems);
  const partial = {
    header: { construction } as FeaturesHeader,
    rank,
    userFactors,
    itemFactors: svd.v,
    itemBias,
  } as unknown as PreparedFeatures;
  const map = new ArmFeatureMap(partial);
  const d = map.dim;
  const x = new Float64Array(d);
  const hasFeature = (k: number): boolean => usable(k) && map.write(data.users[k]!, data.items[k]!, x, 0);
  // held-out ratings with a feature, grouped by user (the bandit's arms); validation likewise
  let dropped = 0;
  const keepEval = new Uint8Array(data.count);
  let nEval = 0;
  let nVal = 0;
  for (let k = 0; k < data.count; k++) {
    if (role[k] === 0) continue;
    if (hasFeature(k)) {
      keepEval[k] = role[k]!;
      if (role[k] === 1) nEval++;
      else nVal++;
    } else if (role[k] === 1) {
      dropped++;
    }
  }
  const evalCsr = buildCsr(nUsers, nItems, data.users, data.items, data.ratings, (k) => keepEval[k] === 1);
  const valCsr = buildCsr(nUsers, nItems, data.users, data.items, data.ratings, (k) => keepEval[k] === 2);

  // ridge statistics on a seeded sample of fit ratings
  let nTrain = 0;
  for (let k = 0; k < data.count; k++) if (isFit(k)) nTrain++;
  const take = Math.min(params.ridgeSample, nTrain);
  const rng = createRng(params.seed, 'ridge');
  const gram = new Float64Array(d * d);
  const bScaled = new Float64Array(d);
  const levelIndex = new Map<number, number>();
  const levelSums: Float64Array[] = [];
  const scale = 1 / (info.ratingMax - info.ratingMin);
  let rows = 0;
  let seen = 0;
  for (let k = 0; k < data.count; k++) {
    if (!isFit(k)) continue;
    // selection sampling (Knuth's Algorithm S): exactly `take` uniformly chosen training ratings
    const chosen = (nTrain - seen) * rng.uniform() < take - rows;
    seen++;
    if (!chosen) continue;
    rows++;
    if (!hasFeature(k)) continue;
    const rating = data.ratings[k]!;
    for (let a = 0; a < d; a++) {
      const xa = x[a]!;
      const o = a * d;
      for (let b = a; b < d; b++) gram[o + b]! += xa * x[b]!;
    }
    const sr = (rating - info.ratingMin) * scale;
    for (let a = 0; a < d; a++) bScaled[a]! += sr * x[a]!;
    let li = levelIndex.get(rating);
    if (li === undefined) {
      li = levelSums.length;
      levelIndex.set(rating, li);
      levelSums.push(new Float64Array(d));
    }
    const sums = levelSums[li]!;
    for (let a = 0; a < d; a++) sums[a]! += x[a]!;
    if ((rows & 0xffff) === 0) onProgress?.('ridge', rows, take);
  }
  for (let a = 0; a < d; a++) for (let b = 0; b < a; b++) gram[a * d + b] = gram[b * d + a]!;
  const sortedLevels = [...levelIndex.keys()].sort((p, q) => p - q);
  const levels = Float64Array.from(sortedLevels);
  const bLevels = new Float64Array(levels.length * d);
  for (let i = 0; i < sortedLevels.length; i++) {
    bLevels.set(levelSums[levelIndex.get(sortedLevels[i]!)!]!, i * d);
  }
  timings.features = (performance.now() - t0) / 1000;

  const header: FeaturesHeader = {
    version: 2,
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
      validation: nVal,
    },
    construction,
    baseline: { mu: baseline.mu, lambda: baseline.lambda, validationRmse: tuned.table },
    singularValues: Array.from(svd.s),
    createdAt: new Date().toISOString(),
    timings,
  };
  return {
    header,
    rank,
    dim: d,
    userFactors,
    itemFactors: svd.v,
    itemBias,
    valPtr: valCsr.rowPtr,
    valItems: valCsr.colIdx,
    valRatings: valCsr.values,
    evalPtr: evalCsr.rowPtr,
    evalItems: evalCsr.colIdx,
    evalRatings: evalCsr.values,
    gram,
    bScaled,
    levels,
    bLevels,
  };
}
