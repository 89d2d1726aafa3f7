/**
 * The recorded rounds of one synthetic environment (one env config and seed), shared by every cell
 * of that seed in a thread: the offered pool indices and the realised reward of each offered arm,
 * drawn once by the environment itself and then replayed.
 *
 * Why this is exact: `SyntheticEnvironment` draws every round's K arms and its one uniform u_t
 * whatever the policy does, and the reward of arm a is 1{u_t < mu_a} (common random numbers,
 * src/envs/SyntheticEnvironment.ts). So the rounds of a seed do not depend on the policy, and a cell
 * replaying them sees the same features, expected rewards and rewards, bit for bit, as a cell that
 * draws them (test/experiments/SyntheticTrace.test.ts checks it for every policy).
 *
 * Why: drawing a round (K indices without replacement from the n-arm pool, K row copies) cost
 * about an eighth of a cell at the paper's sizes; replaying is K row copies. The trace grows on
 * demand (any horizon), at 5 bytes per offered arm: 500 KB for T = 10,000 and K = 5 plus the pool.
 */
import type { Environment } from '../envs/Environment.js';
import { createSyntheticEnvironment, type SyntheticEnvironment } from '../envs/SyntheticEnvironment.js';
import type { SyntheticEnvConfig } from './types.js';

export class SyntheticTrace {
  readonly dim: number;
  readonly armsPerRound: number;
  /** Pool features (n x d, row-major) and expected rewards of the environment (read-only). */
  readonly pool: Float64Array;
  readonly poolMeans: Float64Array;
  private readonly source: SyntheticEnvironment;
  private readonly description: Readonly<Record<string, unknown>>;
  /** Pool index of each offered arm, round after round (K per round). */
  private offered: Int32Array;
  /** Realised reward (0 or 1) of each offered arm. */
  private rewards: Uint8Array;
  private recorded = 0;

  /**
   * @param env - a synthetic config without users (`arrivalsPerUnit` absent).
   * @param seed - the environment's seed (as `createEnvironment`).
   * @example
   * new SyntheticTrace({ kind: 'synthetic', dim: 20, arms: 100, armsPerRound: 5, thetaNorm: 2, link: 'logistic' }, 1).replay().dim; // returns 20
   */
  constructor(env: SyntheticEnvConfig, seed: number) {
    if (env.arrivalsPerUnit !== undefined)
      throw new RangeError(
        'SyntheticTrace: an environment with users (arrivalsPerUnit) is not supported; use createEnvironment.',
      );
    this.source = createSyntheticEnvironment(
      {
        dim: env.dim,
        arms: env.arms,
        armsPerRound: env.armsPerRound,
        thetaNorm: env.thetaNorm,
        link: env.link,
      },
      seed,
    );
    this.dim = this.source.dim;
    this.armsPerRound = this.source.armsPerRound;
    this.pool = this.source.pool;
    this.poolMeans = this.source.poolMeans;
    this.description = this.source.describe();
    this.offered = new Int32Array(0);
    this.rewards = new Uint8Array(0);
  }

  /** Rounds recorded so far. */
  get rounds(): number {
    return this.recorded;
  }

  /** Records rounds until at least `rounds` are available (never shrinks). */
  ensure(rounds: number): void {
    if (rounds <= this.recorded) return;
    const k = this.armsPerRound;
    if (rounds * k > this.offered.length) {
      const capacity = Math.max(rounds, 2 * this.recorded, 1024) * k;
      const offered = new Int32Array(capacity);
      offered.set(this.offered.subarray(0, this.recorded * k));
      const rewards = new Uint8Array(capacity);
      rewards.set(this.rewards.subarray(0, this.recorded * k));
      this.offered = offered;
      this.rewards = rewards;
    }
    const features = new Float64Array(k * this.dim);
    const expected = new Float64Array(k);
    for (let t = this.recorded; t < rounds; t++) {
      this.source.nextRound(features, expected);
      const arms = this.source.offeredArms();
      for (let a = 0; a < k; a++) {
        this.offered[t * k + a] = arms[a]!;
        this.rewards[t * k + a] = this.source.reward(a);
      }
    }
    this.recorded = rounds;
  }

  /**
   * A fresh environment that replays this trace from its first round; `rounds` (default 0) are
   * recorded at once, more as the replay needs them.
   */
  replay(rounds = 0): Environment {
    this.ensure(rounds);
    return new TraceReplay(this);
  }

  /** @internal the arrays of the replay (valid for `rounds` rounds after `ensure`). */
  arrays(): { offered: Int32Array; rewards: Uint8Array } {
    return { offered: this.offered, rewards: this.rewards };
  }

  describe(): Readonly<Record<string, unknown>> {
    return this.description;
  }
}

/** One cell's cursor over a trace: the Environment a cell runs on. */
class TraceReplay implements Environment {
  readonly name = 'synthetic';
  readonly dim: number;
  readonly armsPerRound: number;
  readonly horizon = Number.POSITIVE_INFINITY;
  private readonly trace: SyntheticTrace;
  private offered: Int32Array;
  private rewards: Uint8Array;
  private available = 0;
  /** The next round (0-based). */
  private next = 0;
  /** Index of the current round's first offered arm; -1 before the first round. */
  private at = -1;

  constructor(trace: SyntheticTrace) {
    this.trace = trace;
    this.dim = trace.dim;
    this.armsPerRound = trace.armsPerRound;
    this.offered = new Int32Array(0);
    this.rewards = new Uint8Array(0);
  }

  nextRound(features: Float64Array, expected: Float64Array): void {
    const k = this.armsPerRound;
    const d = this.dim;
    const round = this.next;
    if (round >= this.available) {
      // record ahead in blocks, so that a cell asks the shared trace rarely
      this.trace.ensure(Math.max(round + 1, 2 * round, 1024));
      const a = this.trace.arrays();
      this.offered = a.offered;
      this.rewards = a.rewards;
      this.available = this.trace.rounds;
    }
    const pool = this.trace.pool;
    const means = this.trace.poolMeans;
    const base = round * k;
    for (let a = 0; a < k; a++) {
      const i = this.offered[base + a]!;
      const src = i * d;
      const dst = a * d;
      for (let j = 0; j < d; j++) features[dst + j] = pool[src + j]!;
      expected[a] = means[i]!;
    }
    this.at = base;
    this.next = round + 1;
  }

  reward(arm: number): number {
    if (this.at < 0) throw new Error('SyntheticEnvironment: reward called before the first nextRound.');
    if (!Number.isInteger(arm) || arm < 0 || arm >= this.armsPerRound) {
      throw new RangeError(
        `SyntheticEnvironment: arm must be an integer in [0, ${this.armsPerRound}). Got ${arm}.`,
      );
    }
    return this.rewards[this.at + arm]!;
  }

  describe(): Readonly<Record<string, unknown>> {
    return this.trace.describe();
  }
}
