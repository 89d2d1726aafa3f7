import type { Environment } from '../envs/Environment.js';
import type { RatingsEnvOptions } from './RatingsEnvOptions.js';
import { RatingsRoundSampler } from './RatingsRoundSampler.js';

/**
 * Full-information protocol on real ratings (SPEC section 5): each round draws a user and K of the
 * user's held-out rated items; every candidate's reward (its rating turned into a reward) is known,
 * so regret against the best of the K offered arms is exact. Rewards are deterministic given the
 * round (reward(arm) returns the expected value).
 *
 * Cost per round: O(K d). Environment stream: `createRng(seed, 'ratings-env')`.
 * @example
 * const env = new RatingsEnvironment({ featuresFile: 'ml.features' }, 1);
 * env.dim; // returns 50
 */
export class RatingsEnvironment implements Environment {
  readonly name = 'ratings-full-information';
  readonly dim: number;
  readonly armsPerRound: number;
  readonly horizon: number;
  private readonly sampler: RatingsRoundSampler;

  constructor(options: RatingsEnvOptions, seed: number) {
    this.sampler = new RatingsRoundSampler(options, seed, 'ratings-env');
    this.dim = this.sampler.dim;
    this.armsPerRound = this.sampler.armsPerRound;
    this.horizon = this.sampler.horizon;
  }

  nextRound(features: Float64Array, expected: Float64Array): void {
    this.sampler.next(features);
    expected.set(this.sampler.rewards);
  }

  reward(arm: number): number {
    return this.sampler.rewards[arm] ?? Number.NaN;
  }

  /** The privacy unit of the current step: its user (`'u<dense user index>'`). */
  unit(): string {
    return this.sampler.unit();
  }

  describe(): Readonly<Record<string, unknown>> {
    return { name: this.name, protocol: 'full-information', ...this.sampler.describe() };
  }
}
