/**
 * The one interface every bandit policy implements (the runner and the CLI call only this).
 *
 * Features of the K candidate arms of a round are passed as one contiguous row-major
 * Float64Array of K x d values (arm a occupies [a*d, (a+1)*d)).
 */
import type { PrivacySpent } from '../privacy/ledger.js';

/**
 * The probability of each arm under the policy's own randomisation, given its current released
 * state. Deterministic policies (UCB-type, TS with scale 0) are exact: 1 on the arm `select` would
 * return (lowest index among ties), `samples` = 0 and `standardErrors` = null. Thompson-sampling
 * policies give a Monte Carlo estimate from `samples` posterior draws with the binomial standard
 * error of each probability.
 */
export interface ArmProbabilities {
  readonly probabilities: Float64Array;
  readonly standardErrors: Float64Array | null;
  readonly samples: number;
}

/** Options of `probabilities` and `selectWithPropensity`. */
export interface ProbabilityOptions {
  /** Monte Carlo draws for Thompson-sampling policies: positive integer <= 10^7; default 2000. */
  readonly samples?: number;
}

/** What `selectWithPropensity` returns: the chosen arm, its logging probability and every arm's. */
export interface SelectionWithPropensity {
  readonly arm: number;
  /** Probability of `arm` under the policy at decision time, in (0, 1] (for off-policy logs). */
  readonly propensity: number;
  /** Every arm's probability (`propensity` is `probabilities.probabilities[arm]`). */
  readonly probabilities: ArmProbabilities;
}

/**
 * The guarantee from the ledger, plus, once a policy that may go on past its planned horizon has
 * learned from more than `horizon` rounds, a note saying so (absent otherwise).
 */
export interface PolicyPrivacy extends PrivacySpent {
  readonly beyondHorizon?: {
    readonly rounds: number;
    readonly horizon: number;
    readonly note: string;
  };
}

export type PolicyId =
  | 'adaprivate-ts'
  | 'adaprivate-ucb'
  | 'adaprivate-ts-amp'
  | 'adaprivate-ts-adaptive'
  | 'linucb'
  | 'lints'
  | 'jdp-linucb'
  | 'zcdp-episodic'
  | 'adac-oful-zcdp'
  | 'rarely-switching-zcdp'
  | 'dgs-linucb';

export interface Policy {
  readonly id: PolicyId;
  /** The frozen, validated configuration the policy was built from (recorded verbatim in results). */
  readonly config: Readonly<Record<string, unknown>>;
  /**
   * Chooses one of `k` arms whose features are `features[0 .. k*d)`. Returns the arm index.
   * Features with norm above 1 are clipped (counted in `clippedCount`); non-finite features throw.
   */
  select(features: Float64Array, k: number): number;
  /**
   * Like `select`, and also returns the chosen arm's probability under the policy (exact for
   * deterministic policies; for Thompson sampling a Monte Carlo estimate from a scratch generator
   * that counts `select`'s own draw as one of the samples, so the propensity is never 0). The
   * exploration stream advances exactly as in `select`; the round waits for `update` or `discard`.
   */
  selectWithPropensity(
    features: Float64Array,
    k: number,
    options?: ProbabilityOptions,
  ): SelectionWithPropensity;
  /** Records the reward in [0, 1] of the most recent `select`. */
  update(reward: number): void;
  /**
   * Abandons the pending `select` (Li et al. replay: the logged arm differed). Nothing of the round
   * enters any statistic. Throws when no `select` is pending.
   */
  discard(): void;
  /**
   * Expected reward of each of the `k` arms from the released statistics (UCB-type policies add
   * their confidence width, so the arm `select` picks has the largest score). No state change, no
   * random draw, no ledger entry, no clipping count. Costs no privacy: post-processing of released
   * statistics and public features.
   */
  scores(features: Float64Array, k: number): Float64Array;
  /** The probability of each arm under the policy's randomisation (see {@link ArmProbabilities}). No state change. */
  probabilities(features: Float64Array, k: number, options?: ProbabilityOptions): ArmProbabilities;
  /**
   * Learns from a round whose action was chosen elsewhere: `features` are the d values of the chosen
   * arm, `reward` in [0, 1]. Goes through the same clipping, batching, noise and ledger as `update`.
   */
  observe(features: Float64Array, reward: number): void;
  /** `observe` for n rounds: `features` n x d row-major, `rewards` n values. All rows are validated first. */
  observeMany(features: Float64Array, rewards: ArrayLike<number>): void;
  /** Delayed feedback: like `select`, but returns a ticket to pass to `updateTicket`. */
  selectTicket(features: Float64Array, k: number): { readonly arm: number; readonly ticket: number };
  /** Records the reward of the round identified by `ticket`. */
  updateTicket(ticket: number, reward: number): void;
  /** Ends the run: releases any partial batch so that the ledger is complete. Idempotent. */
  finish(): void;
  /** The guarantee actually spent so far, from the ledger of releases. */
  privacy(): PolicyPrivacy;
  /** Rounds learned so far (updates and observations; discarded selects do not count). */
  readonly roundsLearned: number;
  /** How many feature vectors have been clipped to unit norm so far. */
  readonly clippedCount: number;
  /** The whole state, RNG included, as JSON-safe data. */
  snapshot(): PolicySnapshot;
  /** Restores a snapshot taken from a policy with the same id and config. */
  restore(snapshot: PolicySnapshot): void;
}

export interface PolicySnapshot {
  readonly id: PolicyId;
  readonly version: number;
  readonly state: unknown;
}
