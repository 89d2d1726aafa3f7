/**
 * The rows the service keeps, engine-neutral. Times are milliseconds since the epoch; features are
 * Float64Array (stored exactly); JSON-valued fields are kept as parsed values.
 */

/** Per-model settings that are not policy options. */
export interface ModelSettings {
  /** Seconds after a decision within which its reward is accepted. */
  readonly rewardWindowSeconds: number;
  /** Reward applied to a decision whose reward never came within the window, or null (none). */
  readonly defaultReward: number | null;
  /** Only 'first' (the first reward of an event counts; later ones are refused as duplicates). */
  readonly duplicateRule: 'first';
  /** Keep reward values on decision rows for the NDJSON export (off by default). */
  readonly logRewards: boolean;
  /**
   * Keep every candidate arm's features on decision rows for the NDJSON export (default true; rows
   * written before the setting read true). False: only the chosen arm's features are stored, as given.
   */
  readonly logCandidates: boolean;
  /**
   * Monte Carlo draws for the arm probabilities of Thompson-sampling policies, answered with every
   * rank; null (models created without it): probabilities only for ranks that ask for them.
   */
  readonly probabilitySamples: number | null;
  /**
   * Days this model's decisions are kept (see the server's retention), overriding the server's
   * `retainDecisionsDays` for this model; null: the server's (rows written before the setting read null).
   */
  readonly retainDecisionsDays: number | null;
}

export interface NewModelRow {
  readonly name: string;
  readonly policy: string;
  /** The policy options as created (JSON-safe). */
  readonly options: Readonly<Record<string, unknown>>;
  readonly settings: ModelSettings;
  readonly createdAt: number;
  /** Snapshot of the fresh policy (state before any round). */
  readonly snapshot: string;
}

export interface ModelRow extends NewModelRow {
  /** Committed releases (the model version). */
  readonly version: number;
}

/**
 * A deleted model kept as a tombstone ({@link Store.deleteModel}): its row as it was at the deletion
 * (policy, options, settings, the last released snapshot and version) and the deletion time. Its
 * ledger rows stay in the ledger; its decisions, raw pending rewards and unit counts are gone.
 */
export interface TombstoneRow extends ModelRow {
  /** Rounds learned by the last release before the deletion. */
  readonly rounds: number;
  /** When the model was deleted (ms since the epoch). */
  readonly deletedAt: number;
}

/** One arm of a decision as logged. */
export interface LoggedArm {
  readonly id: string;
  readonly features: readonly number[];
}

/**
 * Reward state of a decision: 'dropped' is a reward of a user-level model acknowledged but not
 * learned (its unit was past a contribution bound); it never enters a statistic.
 */
export type RewardState = 'none' | 'pending' | 'released' | 'dropped';

/** How a stored decision's inverse propensity was obtained (see `InversePropensity` in src/policies). */
export interface LoggedInversePropensity {
  readonly kind: 'exact' | 'geometric-resampling';
  readonly value: number;
  readonly cap: number | null;
}

export interface DecisionRow {
  readonly model: string;
  readonly eventId: string;
  /** Order of the decision within its model (assigned by the store on insert; 0 when inserting). */
  readonly seq: number;
  readonly time: number;
  /** The candidate arms' ids. */
  readonly armIds: readonly string[];
  /**
   * K x d features as given (row-major), for the export; only the chosen arm's d features (as given)
   * when the model does not log candidates (`settings.logCandidates` false).
   */
  readonly features: Float64Array;
  readonly dim: number;
  readonly chosen: number;
  /** The chosen arm's features after clipping (what the policy learns from). */
  readonly chosenFeatures: Float64Array;
  /** Every arm's probability (display); null when the rank was decided without them. */
  readonly probabilities: readonly number[] | null;
  /**
   * The logged inverse propensity of the chosen arm (`selectWithPropensity`'s: exact 1, or geometric
   * resampling with its cap); absent on decisions stored before it existed.
   */
  readonly inversePropensity?: LoggedInversePropensity;
  readonly modelVersion: number;
  readonly rewardState: RewardState;
  /** The reward, only when the model logs rewards and one was recorded. */
  readonly reward: number | null;
  /** 'given', 'default' or null (no reward yet). */
  readonly rewardSource: 'given' | 'default' | null;
  /** The release that used this decision's reward (null until released). */
  readonly release: number | null;
  /** The privacy unit (user or device id) of the event, when the rank or the reward named one. */
  readonly unit?: string | null;
  /**
   * How many of the K candidate vectors the policy clipped to norm 1 (null on rows stored before
   * schema 5, and on decisions of PostgreSQL replicas' releasing selects: counted from `features`).
   */
  readonly clipped?: number | null;
}

/** A reward received and not yet released: replayed in order after a restart. */
export interface PendingReward {
  readonly eventId: string;
  readonly reward: number;
  readonly features: Float64Array;
  /** The event's privacy unit (null when none was named). */
  readonly unit?: string | null;
}

/**
 * A unit's contribution count in a user-level model (one row per model and unit; see
 * src/privacy/admitContribution.ts for the rule that reads and writes it).
 */
export interface UnitCountRow {
  readonly epoch: number;
  readonly release: number;
  readonly inRelease: number;
  readonly releases: number;
  /** Subsampled releases: whether the unit was drawn into `release`; null otherwise. */
  readonly sampled: boolean | null;
}

/** Per-model totals of a user-level model. */
export interface UnitTotals {
  /** Rewards dropped because their unit had c rewards in the open release. */
  readonly droppedPerRelease: number;
  /** Rewards dropped because their unit had taken part in m releases of the epoch. */
  readonly droppedPerEpoch: number;
  /** Epoch of the data in the open release (-1: none yet). */
  readonly openEpoch: number;
}

/**
 * What a reward of a user-level model changes in the unit tables, in the reward's transaction:
 * `count` the unit's new count when the reward is kept (null: dropped by `dropped`), the counts of
 * epochs before `expireBefore` deleted (null: none), and the model's open epoch.
 */
export interface UnitWrite {
  readonly unit: string;
  readonly count: UnitCountRow | null;
  readonly dropped: 'perRelease' | 'perEpoch' | null;
  readonly expireBefore: number | null;
  /** The epoch of the data in the open release after this reward (null: unchanged). */
  readonly openEpoch: number | null;
  /**
   * True when the release committed with this reward was made before it (the policy closed the
   * release of an earlier epoch first): it consumes only the rewards pending before this one. A
   * release with a dropped reward is always such a release.
   */
  readonly releaseBefore?: boolean;
}

/**
 * A batch release, committed in the same transaction as the reward that completed it: the policy
 * snapshot after the release, the new ledger row, and every pending reward of the model (including
 * the one being recorded) marked released and deleted.
 */
export interface ReleaseInput {
  /** The new model version; must be the stored version + 1 (checked: no release twice). */
  readonly version: number;
  readonly snapshot: string;
  /** What the ledger reports after this release (JSON-safe). */
  readonly spent: Readonly<Record<string, unknown>>;
  /** Ledger releases this transaction added (a batched policy adds 1; a tree mechanism may add more). */
  readonly releases: number;
  /** Rounds learned by the policy after this release. */
  readonly rounds: number;
}

export interface LedgerRow {
  readonly model: string;
  /** 1, 2, ...: equals the model version this release produced. */
  readonly version: number;
  readonly time: number;
  readonly releases: number;
  readonly rounds: number;
  /** Rewards whose raw values this release consumed (and deleted). */
  readonly rewards: number;
  readonly spent: Readonly<Record<string, unknown>>;
}
