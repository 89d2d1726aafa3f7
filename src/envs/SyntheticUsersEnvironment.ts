/**
 * The paper's synthetic environment with users: the same rounds as {@link SyntheticEnvironment}
 * (same seed, same arms, same reward noise), each round belonging to a user (a privacy unit) who
 * arrives `arrivalsPerUnit` = k times in the run. It serves the user-level privacy study (issue 25):
 * the paper's group-privacy claim protects all k records of a user at once; a user-level policy
 * bounds and protects them through the unit id of every reward.
 *
 * Arrivals: n = ceil(T / k) users u0 .. u(n-1); the sequence of n k arrivals (user i repeated k times)
 * is shuffled uniformly (Fisher-Yates, stream `'units'` of the seed) and the first T are the rounds'
 * users, so each user's k arrivals are spread at random over the run (when k does not divide T, the
 * n k - T arrivals shuffled past the horizon are missing: at most that many users have fewer than k). The unit does not change the rewards: the users
 * share theta*, so a comparison between privacy units measures the cost of privacy only.
 *
 * Cost: O(T) time and memory at construction; per round as the synthetic environment, O(K d).
 */
import { createRng } from '../random/index.js';
import type { Environment } from './Environment.js';
import {
  createSyntheticEnvironment,
  type SyntheticEnvironment,
  type SyntheticEnvironmentOptions,
} from './SyntheticEnvironment.js';

/** Options of {@link createSyntheticUsersEnvironment}. */
export interface SyntheticUsersOptions extends SyntheticEnvironmentOptions {
  /** Arrivals of each user, k. Required; positive integer. */
  readonly arrivalsPerUnit: number;
  /** Rounds T that the environment serves. Required; positive integer. */
  readonly horizon: number;
}

/** Synthetic environment whose rounds belong to users; build it with {@link createSyntheticUsersEnvironment}. */
export class SyntheticUsersEnvironment implements Environment {
  readonly name = 'synthetic-users';
  readonly dim: number;
  readonly armsPerRound: number;
  readonly horizon: number;
  /** Arrivals per user, k. */
  readonly arrivalsPerUnit: number;
  /** Number of users n = ceil(T / k). */
  readonly units: number;
  /** The rounds' environment (the plain synthetic one for the same seed). */
  readonly inner: SyntheticEnvironment;
  private readonly arrivals: Int32Array;
  private readonly names: readonly string[];
  private round = -1;

  constructor(options: SyntheticUsersOptions, seed: number) {
    const k = options.arrivalsPerUnit;
    if (typeof k !== 'number' || !Number.isSafeInteger(k) || k < 1) {
      throw new RangeError(
        `SyntheticUsersEnvironment: arrivalsPerUnit must be a positive integer. Got ${String(k)}.`,
      );
    }
    const horizon = options.horizon;
    if (typeof horizon !== 'number' || !Number.isSafeInteger(horizon) || horizon < 1) {
      throw new RangeError(
        `SyntheticUsersEnvironment: horizon must be a positive integer. Got ${String(horizon)}.`,
      );
    }
    const { arrivalsPerUnit: _k, horizon: _t, ...envOptions } = options;
    this.inner = createSyntheticEnvironment(envOptions, seed);
    this.dim = this.inner.dim;
    this.armsPerRound = this.inner.armsPerRound;
    this.horizon = horizon;
    this.arrivalsPerUnit = k;
    this.units = Math.ceil(horizon / k);
    const all = new Int32Array(this.units * k);
    for (let i = 0; i < all.length; i++) all[i] = Math.floor(i / k);
    const rng = createRng(seed, 'units');
    for (let i = all.length - 1; i > 0; i--) {
      const j = rng.integer(i + 1);
      const t = all[i]!;
      all[i] = all[j]!;
      all[j] = t;
    }
    this.arrivals = all.slice(0, horizon);
    this.names = Array.from({ length: this.units }, (_, i) => `u${i}`);
  }

  nextRound(features: Float64Array, expected: Float64Array): void {
    if (this.round + 1 >= this.horizon) {
      throw new RangeError(`SyntheticUsersEnvironment: all ${this.horizon} rounds have been served.`);
    }
    this.inner.nextRound(features, expected);
    this.round++;
  }

  reward(arm: number): number {
    return this.inner.reward(arm);
  }

  /** The user of the current round (`'u<i>'`). */
  unit(): string {
    if (this.round < 0) throw new Error('SyntheticUsersEnvironment: unit called before the first nextRound.');
    return this.names[this.arrivals[this.round]!]!;
  }

  /** How many rounds each user has in the run (length n; k for all users when k divides T). */
  arrivalCounts(): Int32Array {
    const counts = new Int32Array(this.units);
    for (let t = 0; t < this.horizon; t++) counts[this.arrivals[t]!]!++;
    return counts;
  }

  describe(): Readonly<Record<string, unknown>> {
    return {
      ...this.inner.describe(),
      name: this.name,
      arrivalsPerUnit: this.arrivalsPerUnit,
      units: this.units,
      horizon: this.horizon,
    };
  }
}

/**
 * Creates the synthetic environment with users for a seed.
 *
 * @param options - the synthetic environment's options plus `arrivalsPerUnit` (k) and `horizon` (T).
 * @param seed - non-negative safe integer; rounds use stream `'env'`, arrivals stream `'units'`.
 * @example
 * const env = createSyntheticUsersEnvironment({ dim: 5, arrivalsPerUnit: 5, horizon: 100 }, 1);
 * env.units; // returns 20
 * const x = new Float64Array(env.armsPerRound * env.dim), mu = new Float64Array(env.armsPerRound);
 * env.nextRound(x, mu); env.unit(); // returns e.g. 'u7'
 */
export function createSyntheticUsersEnvironment(
  options: SyntheticUsersOptions,
  seed: number,
): SyntheticUsersEnvironment {
  return new SyntheticUsersEnvironment(options, seed);
}
