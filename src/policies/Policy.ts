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
  /**
   * The whole state as JSON-safe data: statistics (including the raw, not yet released sums: store a
   * snapshot like the raw data), the exploration stream, the seeded noise stream in research mode
   * (secure noise has no state), the privacy ledger, the id, config and library version.
   */
  snapshot(): PolicySnapshot;
  /** `JSON.stringify(snapshot())`: the text `loadPolicy` reads back. */
  save(): string;
  /**
   * Restores a snapshot of a policy with the same id, config and library version. The ledger never
   * goes back: restoring an older snapshot of this same policy after it has released more is refused
   * unless `options.rewind` (the ledger then keeps counting every release), and a policy that has
   * released cannot take another policy's snapshot (use `loadPolicy`). Secure noise is never replayed.
   * A refused restore leaves the policy unchanged; the message names the field.
   */
  restore(snapshot: PolicySnapshot, options?: RestoreOptions): void;
}

/** Options of {@link Policy.restore} and `loadPolicy`. */
export interface RestoreOptions {
  /**
   * Allow restoring an older snapshot of this same policy instance after it has released more
   * (default false). Re-running from an old state re-spends budget, so the ledger keeps every release
   * already made and counts the new ones on top.
   */
  readonly rewind?: boolean;
}

export interface PolicySnapshot {
  /** Always 'adaprivate.policySnapshot'. */
  readonly format: string;
  /** Layout version of the snapshot. */
  readonly version: number;
  /** The library version that wrote it (a snapshot is read only by the same version). */
  readonly library: string;
  readonly id: PolicyId;
  /** The frozen configuration (loadPolicy rebuilds the policy from it). */
  readonly config: Readonly<Record<string, unknown>>;
  /** Random id of the policy lineage (kept across loads) and of the instance that wrote the snapshot. */
  readonly lineage: string;
  readonly instance: string;
  readonly state: unknown;
  /** snapshotChecksum of every other field (detects corruption, not forgery). */
  readonly checksum: string;
}
