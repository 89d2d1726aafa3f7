/**
 * A store that several service replicas can share (PostgreSQL): besides {@link Store}, the release
 * of one batch exactly once across replicas, the released state without the raw rewards, and the
 * release notifications a replica refreshes its decision view from (docs/serving.md, "Several
 * replicas").
 */
import type { DecisionRow, LedgerRow, PendingReward, ReleaseInput, UnitCountRow } from './rows.js';
import type { ModelState, RecordRewardOutcome, RewardInput, Store } from './Store.js';

/**
 * Computes a batch release from the locked state (see {@link ReplicaStore.releaseBatch}): the last
 * released snapshot and version, and the batch's raw rewards. Returns the release to commit, or
 * null to commit nothing. Runs while the model row is locked: keep it short and free of I/O.
 */
export type ComputeRelease = (state: ModelState) => ReleaseInput | null | Promise<ReleaseInput | null>;

/** The version {@link ReplicaStore.onRelease} reports when a replica deleted the model. */
export const DELETED_VERSION = -1;

/** The state of a model as of its last release: public (no raw reward in it). */
export interface ReleasedState {
  /** Number of committed releases. */
  readonly version: number;
  /** Rounds learned by the last release (0 before the first). */
  readonly rounds: number;
  /** Policy snapshot written with the last release (the fresh policy's before the first). */
  readonly snapshot: string;
}

/**
 * What {@link ReplicaStore.recordPending} did, and the model's pending rewards after it.
 * 'horizon-exhausted': the model has learned (released + pending) its horizon; nothing was written.
 */
export interface PendingOutcome {
  readonly outcome: RecordRewardOutcome | 'horizon-exhausted';
  readonly pending: number;
}

/**
 * Computes a decision from the locked state (see {@link ReplicaStore.decideSerialised}): the
 * decision row to store and, when deciding released (DGS-LinUCB's estimate after new data), that
 * release (version = stored + 1, no rewards). Runs while the model row is locked: keep it short and
 * free of I/O.
 */
export type ComputeDecision = (
  state: ReleasedState,
) =>
  | { readonly decision: DecisionRow; readonly release: ReleaseInput | null }
  | Promise<{ readonly decision: DecisionRow; readonly release: ReleaseInput | null }>;

/** What {@link ReplicaStore.decideSerialised} committed. */
export interface SerialisedDecision {
  /** False when the event id already had a decision: nothing was written (nor released). */
  readonly inserted: boolean;
  /** The ledger row of the release made by the decision, or null. */
  readonly release: LedgerRow | null;
}

/** What the contribution-bound rule decided on one reward of a user-level model. */
export interface UnitDecision {
  /** The unit's new count when the reward is kept; null when it is dropped. */
  readonly count: UnitCountRow | null;
  /** The bound that dropped it (null: kept). */
  readonly dropped: 'perRelease' | 'perEpoch' | null;
}

/**
 * The contribution-bound rule as the caller applies it (the service: src/privacy/admitContribution.ts)
 * to the unit's stored count (null: none, or one of an expired epoch) for the open release `release`
 * of epoch `epoch`. Runs while the model row is locked: pure, no I/O.
 */
export type AdmitUnit = (count: UnitCountRow | null, epoch: number, release: number) => UnitDecision;

/** What {@link ReplicaStore.recordUnitPending} did. */
export interface UnitPendingOutcome {
  readonly outcome: RecordRewardOutcome;
  /** The bound that dropped the reward (null: kept and pending, or not recorded). */
  readonly dropped: 'perRelease' | 'perEpoch' | null;
  /** Closed releases of the model waiting to be released (full, or closed at an epoch change). */
  readonly due: number;
}

/** A closed release of a user-level model (see {@link ReplicaStore.releaseUnitGroup}). */
export interface UnitGroup {
  /** The number the rewards were admitted to (the contribution counts' `release`). */
  readonly release: number;
  /** The epoch of every reward in it (a release never spans an epoch boundary). */
  readonly epoch: number;
}

/**
 * Computes the release of one closed group of a user-level model from the locked state: the last
 * released snapshot and the group's raw rewards (with their units). Like {@link ComputeRelease}.
 */
export type ComputeUnitRelease = (
  state: ModelState,
  group: UnitGroup,
) => ReleaseInput | null | Promise<ReleaseInput | null>;

/**
 * The oldest pending rewards of a model with the released state they are pending at, read in one
 * snapshot without the model row lock (see {@link ReplicaStore.pendingBatch}).
 */
export interface PendingBatch {
  /** The stored version the rewards are pending at. */
  readonly version: number;
  /** Rounds learned at that version. */
  readonly rounds: number;
  /** The rewards, oldest first (at most the size asked for). */
  readonly pending: readonly PendingReward[];
  /** Their sequence numbers, in the same order (what {@link ReplicaStore.releasePending} deletes). */
  readonly seqs: readonly number[];
}

/**
 * What a commit computed from an expected version did: 'stale' when the stored version had moved
 * (nothing written: recompute from the newer state), 'gone' when the model does not exist.
 */
export type VersionedOutcome = 'stale' | 'gone';

/**
 * What {@link ReplicaStore.stepReward} did. 'pending': rewards of the model are pending (left by a
 * crash, or another replica's pending path), nothing written: store the reward as pending instead,
 * so the older ones are learned first.
 */
export type StepOutcome = RecordRewardOutcome | 'horizon-exhausted' | 'stale' | 'pending';

/** One step of {@link ReplicaStore.stepRewards}: the reward it learns and what the policy released in it. */
export interface StepInput {
  /** The reward (one decision's) this step learns. */
  readonly reward: RewardInput;
  /** Privacy releases the policy made in this step (0 or more). */
  readonly releases: number;
  /** What the ledger reports after this step (JSON-safe): the step's ledger row. */
  readonly spent: Readonly<Record<string, unknown>>;
}

/**
 * What {@link ReplicaStore.stepRewards} did: like {@link StepOutcome}, except that a step whose
 * event is unknown or already rewarded (or repeats an earlier step's) is named by its index, and
 * nothing is written: recompute without it.
 */
export type StepsOutcome =
  | 'recorded'
  | 'stale'
  | 'pending'
  | 'horizon-exhausted'
  | { readonly rejected: number; readonly outcome: 'unknown-event' | 'duplicate' };

/** One decision of {@link ReplicaStore.decideMany}, and what the policy released in it (or null). */
export interface DecisionStep {
  readonly decision: DecisionRow;
  /** The privacy releases and spent budget of a decision that released (its ledger row); null: none. */
  readonly release: { readonly releases: number; readonly spent: Readonly<Record<string, unknown>> } | null;
}

export interface ReplicaStore extends Store {
  /**
   * `recordReward(input, null)` and `pendingCount` in one round trip: stores the reward as pending
   * (nothing written unless the outcome is 'recorded') and returns the pending count after it. With a
   * `horizon` (a horizon-bounded policy), refuses with 'horizon-exhausted' when the model's learned
   * rounds plus its pending rewards already reach it, atomically with the insert (under the model
   * row lock), so replicas together never accept more than `horizon` rewards.
   */
  recordPending(input: RewardInput, horizon?: number | null): Promise<PendingOutcome>;
  /**
   * Releases the oldest `batchSize` pending rewards of `model` once across all replicas (row lock +
   * re-check); null when fewer are pending or another replica released them first.
   */
  releaseBatch(
    model: string,
    batchSize: number,
    time: number,
    compute: ComputeRelease,
  ): Promise<LedgerRow | null>;
  /**
   * A decision serialised with the model's learning (policies whose select can release): locks the
   * model row, hands the last released state to `compute`, and commits the decision row together
   * with the release it made, if any (new snapshot, ledger row of 0 rewards, version + 1). Nothing is
   * written when the event id exists. Null when the model does not exist. Throws
   * {@link StoreConflictError} when the release's version is not the stored version + 1.
   */
  decideSerialised(model: string, time: number, compute: ComputeDecision): Promise<SerialisedDecision | null>;
  /**
   * A reward of a user-level model (privacyUnit 'user'), admitted or dropped across replicas
   * exactly by the contribution bounds: one transaction under the model row lock (so admissions of
   * the model, by any replica, and its releases run one at a time) reads the open release and the
   * unit's count, applies `admit`, and writes the decision's state, the pending reward (kept) with the
   * release it was admitted to, the unit's count, the dropped totals and the open release together.
   * The open release closes after `batchSize` kept rewards, or, partial, when the first reward of a
   * later epoch arrives (`epoch`, the caller's clock; an epoch never goes back: the stored one is
   * used when it is later); counts of earlier epochs are deleted then.
   */
  recordUnitPending(
    input: RewardInput & { readonly unit: string },
    epoch: number,
    batchSize: number,
    admit: AdmitUnit,
  ): Promise<UnitPendingOutcome>;
  /**
   * Releases the oldest closed group of a user-level model once across replicas (model row lock +
   * re-check): `compute` gets the last released state with exactly the group's rewards. Null when
   * no group is closed or another replica released it first.
   */
  releaseUnitGroup(model: string, time: number, compute: ComputeUnitRelease): Promise<LedgerRow | null>;
  /**
   * The oldest `batchSize` pending rewards of `model` (fewer when fewer are pending) and the version
   * and rounds they are pending at, in one snapshot, without the model row lock; null when the model
   * does not exist. For {@link releasePending}: a replica computes the release outside the lock.
   */
  pendingBatch(model: string, batchSize: number): Promise<PendingBatch | null>;
  /**
   * Commits `release`, computed from `batch` (from {@link pendingBatch}), in one round trip that
   * holds the model row lock for itself alone: when the stored version is still `batch.version`,
   * deletes exactly the batch's raw rewards and writes the ledger row, the decisions' states and the
   * new snapshot together. Returns the ledger row, or 'stale' (another replica released meanwhile:
   * nothing written) or 'gone'. Throws {@link StoreConflictError} when `release.version` is not
   * `batch.version + 1`.
   */
  releasePending(
    model: string,
    batch: PendingBatch,
    release: ReleaseInput,
    time: number,
  ): Promise<LedgerRow | VersionedOutcome>;
  /**
   * One step of a serialised-learning policy that learns the reward `input` directly, computed
   * from the stored version `expected` (its release: version `expected + 1`, rounds + 1): in one
   * round trip under the model row lock, checks the event (unknown, duplicate), the version
   * ('stale'), that no reward of the model is pending ('pending'), and with a `horizon` the stored
   * rounds ('horizon-exhausted'); then marks the decision rewarded and released and commits the
   * step's ledger row (1 reward) and snapshot. Nothing is written unless 'recorded'.
   */
  stepReward(
    input: RewardInput,
    expected: number,
    horizon: number | null,
    release: ReleaseInput,
  ): Promise<StepOutcome>;
  /**
   * Consecutive steps of a serialised-learning policy, computed in order from the stored version
   * `expected` (step i, from 1: version `expected + i`, one reward), committed together in one round
   * trip under the model row lock (a replica's group commit of the steps that queued while its last
   * one was in flight): the same checks as {@link stepReward} for every step, then each decision
   * rewarded and released at its step's version, one ledger row per step, and the model row at the
   * last step with `snapshot` (the policy after all of them) and `rounds` (its learned rounds: the
   * stored rounds + the steps, checked). Nothing is written unless 'recorded'.
   */
  stepRewards(
    model: string,
    expected: number,
    horizon: number | null,
    steps: readonly StepInput[],
    rounds: number,
    snapshot: string,
  ): Promise<StepsOutcome>;
  /**
   * A decision of a policy whose select may release (DGS-LinUCB), decided from the stored version
   * `expected`, committed in one round trip under the model row lock with its release, if any
   * (version `expected + 1`, ledger row of 0 rewards, at the decision's time). 'inserted', 'exists'
   * (the event id has a decision: nothing written), 'stale' or 'gone'.
   */
  decideAt(
    expected: number,
    decision: DecisionRow,
    release: ReleaseInput | null,
  ): Promise<'inserted' | 'exists' | VersionedOutcome>;
  /**
   * Consecutive decisions of a policy whose select may release (DGS-LinUCB), decided in order from
   * the stored version `expected` (the k-th one that released: version `expected + k`), committed
   * together in one round trip under the model row lock: every decision row, one ledger row of 0
   * rewards per release (at `rounds`), and the model row at the last release with `snapshot` (null
   * when none released). 'inserted', 'stale', 'gone', or `{ exists: i }` (decision i's event id has
   * a decision, or repeats an earlier one's: nothing written).
   */
  decideMany(
    model: string,
    expected: number,
    decisions: readonly DecisionStep[],
    rounds: number,
    snapshot: string | null,
  ): Promise<'inserted' | VersionedOutcome | { readonly exists: number }>;
  /** Closed groups of a user-level model waiting for their release. */
  unitGroupsDue(model: string): Promise<number>;
  /** The committed version of `model` (a cheap check), or null when it does not exist. */
  modelVersion(model: string): Promise<number | null>;
  /** The last released state of `model` (never the raw rewards), or null when it does not exist. */
  releasedState(model: string): Promise<ReleasedState | null>;
  /** Number of rewards of `model` waiting for their release (reads no reward value). */
  pendingCount(model: string): Promise<number>;
  /**
   * Calls `listener` after every committed release by any replica (and with {@link DELETED_VERSION}
   * after a deletion); resolves with a stop function.
   */
  onRelease(
    listener: (model: string, version: number) => void,
    onError?: (err: Error) => void,
  ): Promise<() => Promise<void>>;
}

/**
 * True when `store` can be shared by several replicas (it has the replica methods).
 *
 * @example
 * isReplicaStore(SqliteStore.open(':memory:')); // returns false
 */
export function isReplicaStore(store: Store): store is ReplicaStore {
  const s = store as Partial<ReplicaStore>;
  return (
    typeof s.releaseBatch === 'function' &&
    typeof s.decideSerialised === 'function' &&
    typeof s.recordPending === 'function' &&
    typeof s.releasedState === 'function' &&
    typeof s.pendingCount === 'function' &&
    typeof s.recordUnitPending === 'function' &&
    typeof s.releaseUnitGroup === 'function' &&
    typeof s.onRelease === 'function' &&
    typeof s.pendingBatch === 'function' &&
    typeof s.releasePending === 'function' &&
    typeof s.stepReward === 'function' &&
    typeof s.stepRewards === 'function' &&
    typeof s.decideMany === 'function' &&
    typeof s.decideAt === 'function'
  );
}
