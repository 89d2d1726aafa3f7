/**
 * Builds the environment (full information) or the logged stream (replay) of a cell from its
 * JSON-safe {@link EnvConfig}. Synthetic environments come from `src/envs`; `ratings` ones from the
 * data module's factories, which receive `options` verbatim.
 */
// the data module's files directly, not its index: the runner stays free of the feature-preparation
// stack (SVD, downloads), which the light core package does not ship
import { RatingsEnvironment } from '../data/RatingsEnvironment.js';
import type { RatingsEnvOptions } from '../data/RatingsEnvOptions.js';
import { RatingsReplayStream } from '../data/RatingsReplayStream.js';
import { ratingsWarmStart } from '../data/ratingsWarmStart.js';
import { tunePriorWeight } from '../data/tunePriorWeight.js';
import type { Environment } from '../envs/Environment.js';
import { replayFromEnvironment } from '../envs/EnvironmentReplayStream.js';
import type { ReplayStream } from '../envs/ReplayStream.js';
import { epsilonToRho, sigmaForRho } from '../privacy/index.js';
import { syntheticCellEnvironment } from './syntheticCellEnvironment.js';
import type { EnvConfig } from './types.js';

const synthetic = syntheticCellEnvironment;

/**
 * The full-information environment of `env` for `seed`. `horizon` (the rounds to be served) is
 * required by a synthetic environment with users (`arrivalsPerUnit`), which lays out every user's
 * arrivals over the run.
 *
 * @example
 * createEnvironment({ kind: 'synthetic', dim: 20, arms: 100, armsPerRound: 5, thetaNorm: 2, link: 'logistic' }, 1).dim; // returns 20
 */
export function createEnvironment(env: EnvConfig, seed: number, horizon?: number): Environment {
  if (env.kind === 'synthetic') return synthetic(env, seed, horizon);
  return new RatingsEnvironment(env.options as unknown as RatingsEnvOptions, seed);
}

/**
 * The logged stream of `env` for `seed` (synthetic: a uniformly logged simulation of `steps` steps;
 * ratings: the data module's stream, which must hold at least `steps` steps).
 *
 * @example
 * createReplay({ kind: 'synthetic', dim: 5, arms: 10, armsPerRound: 5, thetaNorm: 2, link: 'logistic' }, 100, 1).length; // returns 100
 */
export function createReplay(env: EnvConfig, steps: number, seed: number): ReplayStream {
  if (env.kind === 'synthetic') return replayFromEnvironment(synthetic(env, seed, steps), steps, seed);
  return new RatingsReplayStream(env.options as unknown as RatingsEnvOptions, seed);
}

/**
 * The prior mean theta_0 that `env` prescribes for its policies, or null (cold start). Ratings
 * environments with `warmStart: true` give the ridge fit of the training split (see
 * `RatingsEnvOptions.warmStart`); synthetic ones are cold-started as SPEC section 5 says.
 *
 * @example
 * priorMeanOf({ kind: 'ratings', options: { featuresFile: 'ml.features', warmStart: true } })?.length; // returns 50
 */
export function priorMeanOf(env: EnvConfig): number[] | null {
  if (env.kind !== 'ratings') return null;
  const options = env.options as unknown as RatingsEnvOptions;
  if (options.warmStart !== true) return null;
  return Array.from(ratingsWarmStart(options));
}

/**
 * The weight of the warm-start prior that `env` prescribes for a cell (passed to the policy as
 * `lambda`), or null (no warm start, or the cell sets `lambda` itself). With `priorWeight: 'tuned'`
 * (the default) it is {@link tunePriorWeight}'s choice for the noise of the batched Gaussian
 * mechanism at this budget, sigma = 1 / sqrt(2 rho(eps, delta)) (0 for non-private cells), and the
 * cell's batch size (default 300): one rule for every policy of that budget.
 *
 * @example
 * priorWeightOf({ kind: 'ratings', options: { featuresFile: 'ml.features', warmStart: true } }, 1, 1e-5, 300); // returns e.g. 100
 */
export function priorWeightOf(
  env: EnvConfig,
  epsilon: number | null,
  delta: number | null,
  batchSize: number,
): number | null {
  if (env.kind !== 'ratings') return null;
  const options = env.options as unknown as RatingsEnvOptions;
  if (options.warmStart !== true) return null;
  const w = options.priorWeight ?? 'tuned';
  if (w !== 'tuned') {
    if (typeof w !== 'number' || !(w > 0) || !Number.isFinite(w))
      throw new Error(
        `ratings environment: priorWeight must be 'tuned' or a positive number. Got ${JSON.stringify(w)}.`,
      );
    return w;
  }
  const sigma = epsilon === null ? 0 : sigmaForRho(epsilonToRho(epsilon, delta ?? 1e-5));
  return tunePriorWeight(options, sigma, batchSize).weight;
}
