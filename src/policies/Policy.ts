/**
 * The one interface every bandit policy implements (the runner and the CLI call only this).
 *
 * Features of the K candidate arms of a round are passed as one contiguous row-major
 * Float64Array of K x d values (arm a occupies [a*d, (a+1)*d)).
 */
import type { PrivacySpent } from '../privacy/ledger.js';
import type { PolicyConfigMap } from './PolicyOptions.js';
import type { PolicyId } from './policyInfo.js';
import type { SnapshotMac } from './snapshotFormat.js';
import type { SnapshotKey } from './snapshotKey.js';
import type { UnitAccountant, UnitGuarantee, UserLevelReport } from './UserLevelPrivacy.js';

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
  /**
   * `selectWithPropensity` only: the cap L of the geometric resampling of a randomised policy
   * (at most L fresh draws per decision); positive integer <= 10^7, default 100,000. An arm of
   * probability p is then weighted 1 - (1 - p)^L on average instead of 1 (for p = 10^-4:
   * 1 - 4.5e-5).
   */
  readonly resamplingCap?: number;
  /**
   * `selectWithPropensity` only: an explicit exploration floor. With probability gamma (this value,
   * in [0, 1); default 0: none) the decision is drawn uniformly among the k candidates instead of by
   * the policy, from the policy's resampling generator (never the exploration stream), so every
   * arm has probability at least gamma / k, logged as `explorationFloor`. A deterministic policy's
   * propensity is then exact: gamma / k + (1 - gamma) 1{a = the policy's choice}; a Thompson
   * policy's inverse propensity is the geometric resampling of the same mixture.
   */
  readonly uniformShare?: number;
}

/**
 * An estimate of 1 / (probability of the chosen arm) that makes inverse propensity weighting
 * unbiased, logged with every decision (the decision log's `inversePropensity`, `propensityKind`,
 * `resamplingCap`).
 *
 * - `'exact'`: deterministic policies (UCB-type, TS with scale 0): the chosen arm has probability 1,
 *   `value` is 1.
 * - `'geometric-resampling'` (Neu & Bartok 2013): Thompson sampling. After the choice, the policy
 *   redraws from the same posterior, with a generator that is neither the exploration stream nor
 *   ever reused between decisions, until the chosen arm wins again; `value` is the number M of
 *   redraws, at most `cap`. M is geometric with mean 1/p given the choice, so
 *   E[1{chosen = a} M] = 1 - (1 - p_a)^cap: unbiased up to that cap term. Expected cost: K redraws
 *   per decision (sum over arms of p_a / p_a).
 */
export interface InversePropensity {
  readonly kind: 'exact' | 'geometric-resampling';
  /** The estimate of 1/p, >= 1 (an integer for resampling). */
  readonly value: number;
  /** The resampling cap (null for 'exact'). */
  readonly cap: number | null;
  /** True when the chosen arm did not win within `cap` redraws (then `value` = cap, an underestimate). */
  readonly capped: boolean;
}

/** What `selectWithPropensity` returns: the chosen arm, its logging probability and every arm's. */
export interface SelectionWithPropensity {
  readonly arm: number;
  /** Probability of `arm` under the policy at decision time, in (0, 1] (for off-policy logs). */
  readonly propensity: number;
  /** Every arm's probability (`propensity` is `probabilities.probabilities[arm]`). */
  readonly probabilities: ArmProbabilities;
  /**
   * The unbiased inverse propensity to log (see {@link InversePropensity}); the Monte Carlo
   * `propensity` of a Thompson-sampling policy is for display (1/propensity is a biased weight).
   */
  readonly inversePropensity: InversePropensity;
  /** The exploration floor gamma / k of this decision (every arm's least probability); 0 without `uniformShare`. */
  readonly explorationFloor: number;
}

/**
 * What `selectWithInversePropensity` returns: `selectWithPropensity` without every arm's
 * probability (no Monte Carlo for display), with the same chosen arm and logged inverse propensity.
 */
export interface SelectionWithInversePropensity {
  readonly arm: number;
  /** The unbiased inverse propensity to log (see {@link InversePropensity}). */
  readonly inversePropensity: InversePropensity;
  /** The exploration floor gamma / k of this decision (every arm's least probability); 0 without `uniformShare`. */
  readonly explorationFloor: number;
}

/**
 * The guarantee from the ledger, plus, once a policy that may go on past its planned horizon has
 * learned from more than `horizon` rounds, a note saying so (absent otherwise).
 */
export interface PolicyPrivacy extends PrivacySpent {
  /**
   * Present (true) when this policy descends from a research-mode branch (`restore(s, { branch: true })`):
   * the rewards pending at the branch point may have been released by several branches, and this ledger
   * counts them once.
   */
  readonly branched?: true;
  /**
   * What the guarantee protects: 'event' (one reward; also non-private policies, which protect
   * nothing) or 'user' (every reward of one unit, within the bounds below). Always present.
   */
  readonly unit?: 'event' | 'user';
  /**
   * The guarantee in words, naming its unit and bounds, e.g. "user-level (eps 1, delta 1e-5) per
   * 30-day epoch, for users contributing at most 1 reward per release and 10 releases per epoch; ...".
   * Always present.
   */
  readonly statement?: string;
  /** privacyUnit 'user': the contribution bounds c and m. */
  readonly bounds?: UserLevelReport['bounds'];
  /** privacyUnit 'user': the epoch (kind, length, current index, epochs with releases). */
  readonly epoch?: UserLevelReport['epoch'];
  /**
   * privacyUnit 'user': one unit's guarantee in the worst epoch so far (at most the configured
   * target). The top-level epsilon and rho are the `cumulative` ones.
   */
  readonly perEpoch?: UnitGuarantee;
  /** privacyUnit 'user': one unit's guarantee over every epoch so far (composition across epochs). */
  readonly cumulative?: UnitGuarantee;
  /**
   * privacyUnit 'user': the epoch of the latest release and one unit's guarantee in that epoch so
   * far (null before the first release). The service's ledger rows keep it (budget per epoch).
   */
  readonly releaseEpoch?: UserLevelReport['releaseEpoch'];
  /** privacyUnit 'user': rewards acknowledged but not learned, by the bound that dropped them. */
  readonly dropped?: UserLevelReport['dropped'];
  /** privacyUnit 'user': rewards offered (kept + dropped). */
  readonly offered?: number;
  /** privacyUnit 'user': the accounting of the user-level figures ('zcdp', or 'rdp' for subsampled releases). */
  readonly unitAccountant?: UnitAccountant;
  /** privacyUnit 'user': the guarantee for one reward (the ledger's event-level figure). */
  readonly eventLevel?: { readonly epsilon: number; readonly rho: number | null };
  readonly beyondHorizon?: {
    readonly rounds: number;
    readonly horizon: number;
    readonly note: string;
  };
}

/** Every registered policy id: the keys of the policy schema table (`POLICY_SCHEMAS`, policyInfo.ts). */
export type { PolicyId };

export interface Policy<I extends PolicyId = PolicyId> {
  readonly id: I;
  /** The frozen, validated configuration the policy was built from (recorded verbatim in results). */
  readonly config: PolicyConfigMap[I];
  /**
   * Chooses one of `k` arms whose features are `features[0 .. k*d)`. Returns the arm index.
   * Features with norm above 1 are clipped (counted in `clippedCount`); non-finite features throw.
   */
  select(features: Float64Array, k: number): number;
  /**
   * Like `select`, and also returns the chosen arm's probability under the policy (exact for
   * deterministic policies; for Thompson sampling a Monte Carlo estimate from a scratch generator
   * that counts `select`'s own draw as one of the samples, so the propensity is never 0: for
   * display) and an unbiased inverse propensity for the log (`inversePropensity`: geometric
   * resampling from the policy's resampling generator, see {@link InversePropensity}). The
   * exploration stream advances exactly as in `select`; the round waits for `update` or `discard`.
   */
  selectWithPropensity(
    features: Float64Array,
    k: number,
    options?: ProbabilityOptions,
  ): SelectionWithPropensity;
  /**
   * `selectWithPropensity` without the Monte Carlo of every arm's probability: the same arm (the
   * exploration stream advances exactly as in `select`) and the same logged inverse propensity
   * (the resampling generator advances exactly as in `selectWithPropensity`), at the cost of
   * `select` plus the geometric resampling (about K redraws) instead of `samples` more draws.
   * `options.samples` is ignored. The round waits for `update` or `discard`.
   */
  selectWithInversePropensity(
    features: Float64Array,
    k: number,
    options?: ProbabilityOptions,
  ): SelectionWithInversePropensity;
  /**
   * Records the reward in [0, 1] of the most recent `select`. `unit`: the user or device id the
   * reward belongs to (a non-empty string), required when privacyUnit is 'user'; a reward past the
   * unit's contribution bounds is acknowledged and not learned (counted in `privacy().dropped`).
   */
  update(reward: number, unit?: string): void;
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
   * arm, `reward` in [0, 1]. Goes through the same clipping, batching, noise and ledger as `update`
   * (and the same contribution bounds of `unit`).
   */
  observe(features: Float64Array, reward: number, unit?: string): void;
  /**
   * `observe` for n rounds: `features` n x d row-major, `rewards` n values, `units` n unit ids
   * (required when privacyUnit is 'user'). Every value is read once into a copy; all rows of the
   * copy are validated first, then learned from the copy.
   */
  observeMany(features: Float64Array, rewards: ArrayLike<number>, units?: ArrayLike<string>): void;
  /** Delayed feedback: like `select`, but returns a ticket to pass to `updateTicket`. */
  selectTicket(features: Float64Array, k: number): { readonly arm: number; readonly ticket: number };
  /** Records the reward of the round identified by `ticket` (`unit` as in `update`). */
  updateTicket(ticket: number, reward: number, unit?: string): void;
  /** Ends the run: releases any partial batch so that the ledger is complete. Idempotent. */
  finish(): void;
  /**
   * privacyUnit 'user': when the clock (or, with epochRounds, the rewards offered) has moved to a
   * later epoch than the data of the open release, releases that partial batch now, as the next
   * reward would do first (a release never holds data of two epochs). For callers that must tell
   * that release apart from the next reward's: the service, which commits it before the reward, and
   * its replicas, which replay each release's admitted rewards alone. A no-op otherwise (event-level
   * policies, no epoch change, nothing open). Unlike `finish`, the policy keeps learning.
   */
  closeEpoch(): void;
  /** The guarantee actually spent so far, from the ledger of releases. */
  privacy(): PolicyPrivacy;
  /** Rounds learned so far (updates and observations; discarded selects do not count). */
  readonly roundsLearned: number;
  /** How many feature vectors have been clipped to unit norm so far. */
  readonly clippedCount: number;
  /**
   * The whole state as JSON-safe data: statistics (including the raw, not yet released sums: store a
   * snapshot like the raw data), the exploration stream, the seeded noise stream in research mode
   * (secure noise has no state), the privacy ledger, the id and config, signed with a MAC under
   * `options.key` (default: this process's random key, so the snapshot then loads only in this
   * process; docs/privacy.md, "Snapshots and keys").
   */
  snapshot(options?: SnapshotOptions): PolicySnapshot;
  /** `JSON.stringify(snapshot(options))`: the text `loadPolicy` reads back (with the same key). */
  save(options?: SnapshotOptions): string;
  /**
   * Restores a snapshot of a policy with the same id and config, signed under `options.key` (the key
   * it was saved with). The ledger never goes back: restoring an older snapshot of this same policy
   * after it has released more is refused unless `options.rewind` (the ledger then keeps counting
   * every release, and the policy's own later snapshots load again), and a policy that has released
   * cannot take another policy's snapshot (use `loadPolicy`). Secure noise is never replayed. A
   * refused restore leaves the policy unchanged; the message names the field.
   */
  restore(snapshot: PolicySnapshot, options?: RestoreOptions): void;
}

/** Options of {@link Policy.snapshot} and {@link Policy.save}. */
export interface SnapshotOptions {
  /**
   * The MAC key (a Uint8Array of >= 32 bytes or a string of >= 32 characters). Default: this
   * process's random key, made at first use and never written anywhere: a snapshot saved under it
   * cannot be loaded by another process. Pass a key to persist snapshots.
   */
  readonly key?: SnapshotKey;
}

/** Options of {@link Policy.restore} and `loadPolicy`. */
export interface RestoreOptions {
  /**
   * The key the snapshot was saved with (see {@link SnapshotOptions.key}; default: this process's
   * random key). A snapshot whose MAC does not verify under it is refused.
   */
  readonly key?: SnapshotKey;
  /**
   * Allow restoring an older snapshot of this same policy instance after it has released more
   * (default false). Re-running from an old state re-spends budget, so the ledger keeps every release
   * already made and counts the new ones on top.
   */
  readonly rewind?: boolean;
  /**
   * Research mode only (`noiseSeed`): restore as a new branch of the snapshot's lineage (default
   * false). Without it, restoring hands the lineage over to this policy (any other policy of it in
   * this process can no longer update, observe or finish) and a snapshot behind the releases the
   * lineage already made in this process is refused. A branch gets a new lineage id and
   * `privacy().branched` is true: the branches both hold, and may both release, the snapshot's
   * unreleased rewards, which no ledger counts twice. Refused with secure noise.
   */
  readonly branch?: boolean;
}

export interface PolicySnapshot {
  /** Always 'adaprivate.policySnapshot'. */
  readonly format: string;
  /** Snapshot format version (independent of the package version; this library writes 3). */
  readonly version: number;
  /** The package version that wrote it (information only: it never decides whether a snapshot loads). */
  readonly library: string;
  readonly id: PolicyId;
  /** The frozen configuration (loadPolicy rebuilds the policy from it). */
  readonly config: Readonly<Record<string, unknown>>;
  /** Random id of the policy lineage (kept across loads) and of the instance that wrote the snapshot. */
  readonly lineage: string;
  readonly instance: string;
  readonly state: unknown;
  /** HMAC-SHA256 under the snapshot key of every other field (snapshotFormat.ts). */
  readonly mac: SnapshotMac;
}
