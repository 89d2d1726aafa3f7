import { RatingsEnvironment, type RatingsEnvOptions, ratingsWarmStart } from '../../../data/index.js';

/** Reference CTR levels of a real-data setting, measured with full information on bandit rounds. */
export interface RealDataReferences {
  /** Uniformly random choice among the K candidates (the logging policy's CTR). */
  readonly random: number;
  /** The best of the K candidates (an upper bound no policy can beat). */
  readonly best: number;
  /** Greedy argmax x^T theta_0 with the warm-start prior and no learning. */
  readonly greedyPrior: number;
  readonly rounds: number;
}

/**
 * Reference levels on `rounds` bandit rounds (user and K held-out candidates, the same draws as the
 * full-information environment with `seed`): random choice, best candidate and the greedy prior.
 *
 * Cost: O(rounds K d) plus the warm start's O(d^3).
 * @example
 * realDataReferences({ featuresFile: 'ml.features' }).greedyPrior; // returns e.g. 0.707
 */
export function realDataReferences(
  options: RatingsEnvOptions,
  rounds = 20_000,
  seed = 1,
): RealDataReferences {
  const theta = ratingsWarmStart(options);
  const env = new RatingsEnvironment(options, seed);
  const k = env.armsPerRound;
  const d = env.dim;
  const x = new Float64Array(k * d);
  const e = new Float64Array(k);
  let greedy = 0;
  let random = 0;
  let best = 0;
  for (let t = 0; t < rounds; t++) {
    env.nextRound(x, e);
    let arm = 0;
    let top = Number.NEGATIVE_INFINITY;
    let max = 0;
    for (let a = 0; a < k; a++) {
      let v = 0;
      for (let c = 0; c < d; c++) v += x[a * d + c]! * theta[c]!;
      if (v > top) {
        top = v;
        arm = a;
      }
      random += e[a]! / k;
      if (e[a]! > max) max = e[a]!;
    }
    greedy += e[arm]!;
    best += max;
  }
  return { random: random / rounds, best: best / rounds, greedyPrior: greedy / rounds, rounds };
}
