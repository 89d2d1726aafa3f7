import { createRng } from '../random/index.js';
import type { Rng } from '../random/Rng.js';
import { ArmFeatureMap } from './ArmFeatureMap.js';
import { loadFeaturesCached } from './loadFeaturesCached.js';
import type { PreparedFeatures } from './PreparedFeatures.js';
import type { RatingsEnvOptions } from './RatingsEnvOptions.js';
import { type RewardRule, ratingReward, resolveRewardRule } from './ratingReward.js';

/**
 * Draws the rounds of the real-data protocols: a user among those with at least K held-out ratings
 * (uniformly, or in proportion to their held-out ratings with `userArrivals: 'activity'`), then K of that user's held-out items uniformly without replacement; writes their
 * arm features (ArmFeatureMap) and their (known) rewards. Shared by the full-information environment and the
 * replay stream, so that both see the same rounds for the same seed.
 *
 * Cost per round: O(K d). Allocation-free after construction.
 */
export class RatingsRoundSampler {
  readonly features: PreparedFeatures;
  readonly dim: number;
  readonly armsPerRound: number;
  readonly horizon: number;
  readonly rule: RewardRule;
  readonly eligibleUsers: Int32Array;
  private readonly rng: Rng;
  private readonly map: ArmFeatureMap;
  private readonly picks: Int32Array;
  private readonly scratch: Int32Array;
  /** Rewards of the current round's K arms. */
  readonly rewards: Float64Array;
  /** Dense user index of the current round. */
  user = -1;
  /** How users are drawn (`RatingsEnvOptions.userArrivals`). */
  readonly userArrivals: 'uniform' | 'activity';
  /** 'activity': one slot per held-out rating of an eligible user, holding the user (else empty). */
  private readonly slots: Int32Array;
  private names: string[] | null = null;

  constructor(
    private readonly options: RatingsEnvOptions,
    readonly seed: number,
    stream: string,
  ) {
    if (options === null || typeof options !== 'object')
      throw new Error('ratings environment: options must be an object.');
    const f = loadFeaturesCached(options.featuresFile);
    const k = options.armsPerRound ?? 5;
    if (!Number.isInteger(k) || k < 2)
      throw new Error(`ratings environment: armsPerRound must be an integer >= 2. Got ${k}.`);
    const horizon = options.horizon ?? 0;
    if (!Number.isSafeInteger(horizon) || horizon < 0) {
      throw new Error(
        `ratings environment: horizon must be a non-negative integer (0 = unlimited). Got ${horizon}.`,
      );
    }
    this.rule = resolveRewardRule(options, f.header);
    this.features = f;
    this.map = new ArmFeatureMap(f);
    this.dim = this.map.dim;
    this.armsPerRound = k;
    this.horizon = horizon === 0 ? Number.POSITIVE_INFINITY : horizon;
    const users = f.evalPtr.length - 1;
    let eligible = 0;
    let maxCount = 0;
    for (let u = 0; u < users; u++) {
      const c = f.evalPtr[u + 1]! - f.evalPtr[u]!;
      if (c >= k) eligible++;
      if (c > maxCount) maxCount = c;
    }
    if (eligible === 0) {
      throw new Error(
        `ratings environment: no user of ${options.featuresFile} has armsPerRound = ${k} held-out ratings (largest: ${maxCount}).`,
      );
    }
    this.eligibleUsers = new Int32Array(eligible);
    let e = 0;
    for (let u = 0; u < users; u++) if (f.evalPtr[u + 1]! - f.evalPtr[u]! >= k) this.eligibleUsers[e++] = u;
    const arrivals = options.userArrivals ?? 'uniform';
    if (arrivals !== 'uniform' && arrivals !== 'activity') {
      throw new Error(
        `ratings environment: userArrivals must be 'uniform' or 'activity'. Got ${JSON.stringify(arrivals)}.`,
      );
    }
    this.userArrivals = arrivals;
    let slotCount = 0;
    if (arrivals === 'activity')
      for (const u of this.eligibleUsers) slotCount += f.evalPtr[u + 1]! - f.evalPtr[u]!;
    this.slots = new Int32Array(slotCount);
    let s = 0;
    if (arrivals === 'activity') {
      for (const u of this.eligibleUsers) {
        const c = f.evalPtr[u + 1]! - f.evalPtr[u]!;
        this.slots.fill(u, s, s + c);
        s += c;
      }
    }
    this.rng = createRng(seed, stream);
    this.picks = new Int32Array(k);
    this.scratch = new Int32Array(maxCount);
    this.rewards = new Float64Array(k);
  }

  /** Draws the next round into `out` (K x d row-major) and `rewards`. */
  next(out: Float64Array): void {
    const f = this.features;
    const d = this.dim;
    const k = this.armsPerRound;
    const u =
      this.userArrivals === 'uniform'
        ? this.eligibleUsers[this.rng.integer(this.eligibleUsers.length)]!
        : this.slots[this.rng.integer(this.slots.length)]!;
    this.user = u;
    const start = f.evalPtr[u]!;
    const count = f.evalPtr[u + 1]! - start;
    this.rng.sampleWithoutReplacement(count, k, this.picks, this.scratch);
    for (let a = 0; a < k; a++) {
      const p = start + this.picks[a]!;
      this.map.write(u, f.evalItems[p]!, out, a * d);
      this.rewards[a] = ratingReward(this.rule, f.evalRatings[p]!);
    }
  }

  /** The privacy unit of the current round: its user, `'u<dense user index>'`. */
  unit(): string {
    if (this.user < 0) throw new Error('ratings environment: unit called before the first round.');
    if (this.names === null) {
      this.names = Array.from({ length: this.features.evalPtr.length - 1 }, (_, i) => `u${i}`);
    }
    return this.names[this.user]!;
  }

  /** A uniform arm index in [0, K) from the same stream (the replay log's logging policy). */
  uniformArm(): number {
    return this.rng.integer(this.armsPerRound);
  }

  describe(): Record<string, unknown> {
    const h = this.features.header;
    return {
      featuresFile: this.options.featuresFile,
      source: h.source,
      family: h.family,
      rank: this.features.rank,
      dim: this.dim,
      construction: this.features.header.construction.kind,
      armsPerRound: this.armsPerRound,
      reward: { mode: this.rule.mode, threshold: this.rule.threshold },
      warmStart: this.options.warmStart === true,
      // recorded only when not the default, so that earlier result descriptions stay as they were
      ...(this.userArrivals === 'uniform' ? {} : { userArrivals: this.userArrivals }),
      eligibleUsers: this.eligibleUsers.length,
      seed: this.seed,
    };
  }
}
