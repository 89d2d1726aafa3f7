import { cholesky, cholSolve } from '../linalg/index.js';
import { createRng } from '../random/index.js';
import { ArmFeatureMap } from './ArmFeatureMap.js';
import { loadFeaturesCached } from './loadFeaturesCached.js';
import type { RatingsEnvOptions } from './RatingsEnvOptions.js';
import { ratingReward, resolveRewardRule } from './ratingReward.js';
import { ratingsWarmStart } from './ratingsWarmStart.js';

/** The prior weights tried by {@link tunePriorWeight}. */
export const PRIOR_WEIGHT_GRID: readonly number[] = [1, 3, 10, 30, 100, 300, 1000];

/** Releases after which the estimate is scored (each holds `batchSize` observations). */
const RELEASES = [1, 3, 10] as const;
/** Repetitions (observation sample and noise draw) per release count. */
const REPETITIONS = 8;
/** Validation rounds (a user and K of the user's validation items) each estimate is scored on. */
const ROUNDS = 2000;

/** The chosen prior weight with the validation score of every weight tried. */
export interface PriorWeightChoice {
  readonly weight: number;
  /** Noise scale per release the rule was tuned for (0: non-private). */
  readonly sigma: number;
  readonly batchSize: number;
  /** Mean greedy reward on validation rounds of each weight. */
  readonly table: readonly { readonly weight: number; readonly reward: number }[];
}

const memo = new Map<string, PriorWeightChoice>();

/**
 * The default prior weight w of the warm start (A = w I + sum x x^T, b = w theta_0 + released sums),
 * tuned on the validation part of the training split only (never on the bandit's evaluation
 * ratings). For each w of `grid`, it simulates the ridge estimate after 1, 3 and 10 releases of
 * `batchSize` observations drawn from validation ratings, each release with N(0, sigma^2 I) noise
 * on the reward sums (the batched Gaussian mechanism), and scores the greedy choice of that
 * estimate on 2,000 validation rounds of K candidates; w with the best mean reward wins (ties: the
 * smaller w). theta_0 is `ratingsWarmStart(options)`, fitted on the fit part.
 *
 * The rule is a property of the features file, the reward rule and sigma; results are memoised per
 * process. Cost: O(|grid| x 24 x (d^3 + 2000 K d)) once per key.
 * @example
 * tunePriorWeight({ featuresFile: 'ml.features', warmStart: true }, 4.9).weight; // returns e.g. 100
 */
export function tunePriorWeight(
  options: RatingsEnvOptions,
  sigma: number,
  batchSize = 300,
  grid: readonly number[] = PRIOR_WEIGHT_GRID,
): PriorWeightChoice {
  if (!(sigma >= 0) || !Number.isFinite(sigma))
    throw new Error(`tunePriorWeight: sigma must be a finite number >= 0. Got ${sigma}.`);
  if (!Number.isSafeInteger(batchSize) || batchSize < 1)
    throw new Error(`tunePriorWeight: batchSize must be a positive integer. Got ${batchSize}.`);
  const f = loadFeaturesCached(options.featuresFile);
  const rule = resolveRewardRule(options, f.header);
  const k = options.armsPerRound ?? 5;
  const key = JSON.stringify([
    f.header.source.sha256,
    f.header.params,
    f.header.createdAt,
    rule,
    k,
    sigma,
    batchSize,
    grid,
  ]);
  const hit = memo.get(key);
  if (hit !== undefined) return hit;

  const map = new ArmFeatureMap(f);
  const d = map.dim;
  const theta0 = ratingsWarmStart(options);
  const users = f.valPtr.length - 1;
  const eligible: number[] = [];
  for (let u = 0; u < users; u++) if (f.valPtr[u + 1]! - f.valPtr[u]! >= k) eligible.push(u);
  const nVal = f.valItems.length;
  if (eligible.length === 0 || nVal === 0) {
    throw new Error(
      `tunePriorWeight: ${options.featuresFile} has no user with ${k} validation ratings; prepare it with a larger validationFraction.`,
    );
  }
  const rng = createRng(1, 'prior-weight');
  // scoring rounds: features and rewards
  const roundX = new Float64Array(ROUNDS * k * d);
  const roundR = new Float64Array(ROUNDS * k);
  const picks = new Int32Array(k);
  let maxCount = 0;
  for (const u of eligible) maxCount = Math.max(maxCount, f.valPtr[u + 1]! - f.valPtr[u]!);
  const scratch = new Int32Array(maxCount);
  for (let t = 0; t < ROUNDS; t++) {
    const u = eligible[rng.integer(eligible.length)]!;
    const start = f.valPtr[u]!;
    rng.sampleWithoutReplacement(f.valPtr[u + 1]! - start, k, picks, scratch);
    for (let a = 0; a < k; a++) {
      const p = start + picks[a]!;
      map.write(u, f.valItems[p]!, roundX, (t * k + a) * d);
      roundR[t * k + a] = ratingReward(rule, f.valRatings[p]!);
    }
  }
  // user of each validation rating (observations are drawn uniformly among validation ratings)
  const userOf = new Int32Array(nVal);
  for (let u = 0; u < users; u++) userOf.fill(u, f.valPtr[u]!, f.valPtr[u + 1]!);
  const score = (theta: Float64Array): number => {
    let sum = 0;
    for (let t = 0; t < ROUNDS; t++) {
      let best = 0;
      let bestV = Number.NEGATIVE_INFINITY;
      for (let a = 0; a < k; a++) {
        const o = (t * k + a) * d;
        let v = 0;
        for (let c = 0; c < d; c++) v += roundX[o + c]! * theta[c]!;
        if (v > bestV) {
          bestV = v;
          best = a;
        }
      }
      sum += roundR[t * k + best]!;
    }
    return sum / ROUNDS;
  };
  const totals = new Float64Array(grid.length);
  const gram = new Float64Array(d * d);
  const s = new Float64Array(d);
  const x = new Float64Array(d);
  const a = new Float64Array(d * d);
  const rhs = new Float64Array(d);
  const theta = new Float64Array(d);
  let runs = 0;
  for (const m of RELEASES) {
    for (let rep = 0; rep < REPETITIONS; rep++) {
      gram.fill(0);
      s.fill(0);
      for (let n = 0; n < m * batchSize; n++) {
        const p = rng.integer(nVal);
        map.write(userOf[p]!, f.valItems[p]!, x, 0);
        const r = ratingReward(rule, f.valRatings[p]!);
        for (let i = 0; i < d; i++) {
          const xi = x[i]!;
          s[i]! += r * xi;
          for (let j = 0; j < d; j++) gram[i * d + j]! += xi * x[j]!;
        }
      }
      const noiseSd = sigma * Math.sqrt(m);
      for (let i = 0; i < d; i++) s[i]! += noiseSd * rng.normal();
      grid.forEach((w, gi) => {
        a.set(gram);
        for (let i = 0; i < d; i++) a[i * d + i]! += w;
        cholesky(a, d, a);
        for (let i = 0; i < d; i++) rhs[i] = w * theta0[i]! + s[i]!;
        cholSolve(a, d, rhs, theta);
        totals[gi]! += score(theta);
      });
      runs++;
    }
  }
  const table = grid.map((weight, i) => ({ weight, reward: totals[i]! / runs }));
  let best = table[0]!;
  for (const row of table) if (row.reward > best.reward) best = row;
  const choice: PriorWeightChoice = { weight: best.weight, sigma, batchSize, table };
  memo.set(key, choice);
  return choice;
}
