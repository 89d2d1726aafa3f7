/**
 * A simulated logged stream for Li et al. (2011) replay evaluation: a uniformly random logging
 * policy acts in a full-information {@link Environment}, and only the logged arm's realised reward
 * is revealed. Lets the replay protocol be run, and checked against full information, on
 * synthetic data. Logging choices use stream `'logging'` of the seed (independent of the
 * environment's own stream). Cost per step: that of `env.nextRound`, allocation-free.
 */
import type { Rng } from '../random/index.js';
import { createRng } from '../random/index.js';
import type { Environment } from './Environment.js';
import type { ReplayStream } from './ReplayStream.js';

export class EnvironmentReplayStream implements ReplayStream {
  readonly name: string;
  readonly dim: number;
  readonly armsPerRound: number;
  readonly length: number;
  private readonly env: Environment;
  private readonly rng: Rng;
  private readonly expected: Float64Array;
  private logged = -1;

  constructor(env: Environment, length: number, seed: number) {
    if (!Number.isSafeInteger(length) || length <= 0 || length > env.horizon) {
      throw new RangeError(
        `EnvironmentReplayStream: length must be a positive integer <= the environment horizon (${env.horizon}). Got ${length}.`,
      );
    }
    this.env = env;
    this.name = `${env.name}-replay`;
    this.dim = env.dim;
    this.armsPerRound = env.armsPerRound;
    this.length = length;
    this.rng = createRng(seed, 'logging');
    this.expected = new Float64Array(env.armsPerRound);
  }

  nextStep(features: Float64Array): number {
    this.env.nextRound(features, this.expected);
    this.logged = this.rng.integer(this.armsPerRound);
    return this.logged;
  }

  loggedReward(): number {
    if (this.logged < 0)
      throw new Error('EnvironmentReplayStream: loggedReward called before the first nextStep.');
    return this.env.reward(this.logged);
  }

  describe(): Readonly<Record<string, unknown>> {
    return { name: this.name, logging: 'uniform', length: this.length, environment: this.env.describe() };
  }
}

/**
 * Wraps a full-information environment as a uniformly logged replay stream of `length` steps.
 *
 * @example
 * const s = replayFromEnvironment(createSyntheticEnvironment({}, 1), 1000, 1);
 * s.nextStep(new Float64Array(s.armsPerRound * s.dim)); // returns the logged arm, in [0, 5)
 */
export function replayFromEnvironment(
  env: Environment,
  length: number,
  seed: number,
): EnvironmentReplayStream {
  return new EnvironmentReplayStream(env, length, seed);
}
