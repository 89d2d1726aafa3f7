/**
 * The one interface every bandit policy implements (the runner and the CLI call only this).
 *
 * Features of the K candidate arms of a round are passed as one contiguous row-major
 * Float64Array of K x d values (arm a occupies [a*d, (a+1)*d)).
 */
import type { PrivacySpent } from '../privacy/ledger.js';

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
  /** Records the reward in [0, 1] of the most recent `select`. */
  update(reward: number): void;
  /** Delayed feedback: like `select`, but returns a ticket to pass to `updateTicket`. */
  selectTicket(features: Float64Array, k: number): { readonly arm: number; readonly ticket: number };
  /** Records the reward of the round identified by `ticket`. */
  updateTicket(ticket: number, reward: number): void;
  /** Ends the run: releases any partial batch so that the ledger is complete. Idempotent. */
  finish(): void;
  /** The guarantee actually spent so far, from the ledger of releases. */
  privacy(): PrivacySpent;
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
