import type { ReplayStream } from '../envs/ReplayStream.js';
import type { RatingsEnvOptions } from './RatingsEnvOptions.js';
import { RatingsRoundSampler } from './RatingsRoundSampler.js';

/**
 * Li et al. (2011) replay log built from real ratings: each logged step draws a user and K of the
 * user's held-out rated items (as in the full-information protocol) and a logged arm uniformly at
 * random among the K (the uniformly random logging policy), revealing only that arm's reward.
 * The replay estimator (mean reward over steps where the evaluated policy picks the logged arm) is
 * unbiased for the policy's value; about length / K steps are effective.
 *
 * Cost per step: O(K d). Stream: `createRng(seed, 'ratings-replay')`.
 * @example
 * const log = new RatingsReplayStream({ featuresFile: 'ml.features', horizon: 300000 }, 1);
 * log.length; // returns 300000
 */
export class RatingsReplayStream implements ReplayStream {
  readonly name = 'ratings-replay';
  readonly dim: number;
  readonly armsPerRound: number;
  readonly length: number;
  private readonly sampler: RatingsRoundSampler;
  private logged = 0;

  constructor(options: RatingsEnvOptions, seed: number) {
    this.sampler = new RatingsRoundSampler(options, seed, 'ratings-replay');
    this.dim = this.sampler.dim;
    this.armsPerRound = this.sampler.armsPerRound;
    // default log length: one logged step per usable held-out rating
    this.length = Number.isFinite(this.sampler.horizon)
      ? this.sampler.horizon
      : this.sampler.features.header.counts.eval;
  }

  nextStep(features: Float64Array): number {
    this.sampler.next(features);
    this.logged = this.sampler.uniformArm();
    return this.logged;
  }

  loggedReward(): number {
    return this.sampler.rewards[this.logged] ?? Number.NaN;
  }

  /** The privacy unit of the current step: its user (`'u<dense user index>'`). */
  unit(): string {
    return this.sampler.unit();
  }

  describe(): Readonly<Record<string, unknown>> {
    return {
      name: this.name,
      protocol: 'replay',
      logging: 'uniform',
      length: this.length,
      ...this.sampler.describe(),
    };
  }
}
