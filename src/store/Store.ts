/**
 * The storage interface of the decision service: one implementation per engine (SQLite here,
 * PostgreSQL behind the same interface), and one test suite run against each
 * (`test/store/storeContract.ts`).
 *
 * Every write that matters is one transaction named for what it guarantees:
 * - `insertDecision`: a decision is stored before its response leaves the server, with the release
 *   its select made, if any (one transaction).
 * - `recordReward`: the reward, and, when it completed a batch, the release (new policy snapshot,
 *   ledger row, the batch's raw rewards deleted and its decisions marked released) commit together,
 *   so a crash before the commit releases nothing and a crash after it never releases again. The
 *   default reward of an event whose reward never came goes through the same call.
 *
 * Methods return promises so that an engine with a network round trip fits. A call's write is
 * applied (visible to every later call, in call order) when its promise resolves, and durable once a
 * later {@link Store.durable} resolves: the server answers a request only after `durable()`. The
 * PostgreSQL engine commits inside each call; the SQLite engine with group commit commits the writes
 * of concurrent requests together (one transaction per turn of the event loop).
 */

import type {
  DecisionRow,
  LedgerRow,
  ModelRow,
  NewModelRow,
  PendingReward,
  ReleaseInput,
  RewardState,
  TombstoneRow,
  UnitCountRow,
  UnitTotals,
  UnitWrite,
} from './rows.js';
import type { StoreConflictError } from './StoreConflictError.js';

/** What `recordReward` did. `recorded`: committed; the other outcomes changed nothing. */
export type RecordRewardOutcome = 'recorded' | 'unknown-event' | 'duplicate';

/** What a reward needs of its decision ({@link Store.rewardTarget}): a narrow read of the row. */
export interface RewardTarget {
  /** Time of the decision (ms since the epoch). */
  readonly time: number;
  readonly rewardState: RewardState;
  /** The chosen arm's features as the policy learns them (clipped to norm 1). */
  readonly chosenFeatures: Float64Array;
  /** The event's privacy unit, when the rank named one. */
  readonly unit?: string | null;
}

/** One reward to record (the decision must exist and have no reward yet). */
export interface RewardInput {
  readonly model: string;
  readonly eventId: string;
  /** The reward in [0, 1]. */
  readonly reward: number;
  /** Milliseconds since the epoch. */
  readonly time: number;
  /** 'given': sent by a client; 'default': the model's default reward after the window. */
  readonly source: 'given' | 'default';
  /** Keep the reward value on the decision row for the export (the model's `logRewards`). */
  readonly logReward: boolean;
  /** The event's privacy unit named by the reward (stored with the decision when it had none). */
  readonly unit?: string | null;
}

/** The state a model's policy is rebuilt from: the last released snapshot, then the pending rewards. */
export interface ModelState {
  /** Policy snapshot written with the last release (the fresh policy's before the first release). */
  readonly snapshot: string;
  /** Number of committed releases (the model version). */
  readonly version: number;
  /** Rounds the policy had learned at the last release (0 before). */
  readonly rounds: number;
  /** Rewards received since the last release, in arrival order. */
  readonly pending: readonly PendingReward[];
}

/** Counts shown in a model's status. */
export interface ModelCounts {
  readonly decisions: number;
  readonly pendingRewards: number;
  readonly releasedRewards: number;
  readonly defaultRewards: number;
}

/** Options of {@link Store.exportDecisions}. */
export interface ExportOptions {
  /** Only decisions with `seq` greater than this (paging); default: from the first. */
  readonly afterSeq?: number;
  /** At most this many rows. */
  readonly limit: number;
}

/** Options of {@link Store.deleteModel}. */
export interface DeleteModelOptions {
  /** Time of the deletion (ms since the epoch), kept on the tombstone. */
  readonly time: number;
  /**
   * false (tombstone): the model row moves to the tombstones with its ledger kept; true (purge): the
   * model or its tombstone and its ledger are removed, and the name is free again.
   */
  readonly purge: boolean;
}

/** What {@link Store.deleteModel} did and how many rows of each kind it removed. */
export interface DeleteModelResult {
  /**
   * 'deleted': the model is now a tombstone; 'purged': the model (or tombstone) and its ledger are
   * gone; 'already-deleted': a tombstone existed and nothing changed (purge false); 'not-found':
   * neither a model nor a tombstone of that name.
   */
  readonly outcome: 'deleted' | 'purged' | 'already-deleted' | 'not-found';
  /** Decision rows removed (with their candidate features, logged rewards and units). */
  readonly decisions: number;
  /** Raw rewards waiting for their release removed (they were never released). */
  readonly pendingRewards: number;
  /** Per-unit contribution counts removed (user-level models). */
  readonly unitCounts: number;
  /** Ledger rows removed (0 unless purged). */
  readonly ledgerRows: number;
}

/** Options of {@link Store.expireDecisions}. */
export interface ExpireDecisionsOptions {
  /**
   * Decisions made before this time (ms) whose reward is settled (released, or dropped by a
   * user-level bound) are removed.
   */
  readonly before: number;
  /**
   * Decisions without a reward made before this time are removed too (null: never): the caller
   * passes a time past the model's reward window, for a model without a default reward.
   */
  readonly openBefore: number | null;
}

export interface Store {
  /** 'sqlite' or 'postgres'. */
  readonly engine: string;
  /**
   * Creates the model, first wins: when a model of that name exists it is returned unchanged with
   * `created: false` (the caller compares the settings).
   */
  createModel(row: NewModelRow): Promise<{ readonly created: boolean; readonly model: ModelRow }>;
  getModel(name: string): Promise<ModelRow | null>;
  listModels(): Promise<readonly ModelRow[]>;
  /**
   * Stores a decision; false (and the decision not written) when the model already has that event id.
   * `release`: the policy released while making this decision (DGS-LinUCB releases its estimate in
   * `select` when data arrived since the last one). It is committed in the same transaction as the
   * decision, like a batch release in `recordReward` (new snapshot, ledger row, every pending raw
   * reward marked released and deleted: the release covers all of them), and it is written even when
   * the decision itself is refused (the release was made). Throws {@link StoreConflictError}
   * (nothing written) when its version is not the stored version + 1.
   */
  insertDecision(row: DecisionRow, release?: ReleaseInput | null): Promise<boolean>;
  getDecision(model: string, eventId: string): Promise<DecisionRow | null>;
  /**
   * The time, reward state and chosen features of a decision (null when there is none): what a
   * reward reads before it is recorded, without the candidate features and probabilities.
   */
  rewardTarget(model: string, eventId: string): Promise<RewardTarget | null>;
  /**
   * One transaction: re-checks that the decision exists and has no reward, stores the reward as
   * pending, and applies `release` when given (see {@link ReleaseInput}). Nothing is written unless
   * the outcome is 'recorded'. Throws {@link StoreConflictError} (nothing written) when the release's
   * version is not the stored version + 1 (a second release of the same batch).
   *
   * `unit` (user-level models): the unit tables change in the same transaction: a kept reward
   * writes its unit's new count; a dropped one (`unit.count` null) is stored on the decision as
   * 'dropped' (no pending row: it is never learned) and counted in the model's totals; counts of
   * epochs before `unit.expireBefore` are deleted. So no crash or retry lets a unit pass its bounds.
   */
  recordReward(
    input: RewardInput,
    release: ReleaseInput | null,
    unit?: UnitWrite | null,
  ): Promise<RecordRewardOutcome>;
  /** The unit's contribution count in a user-level model (null: none stored). */
  unitCount(model: string, unit: string): Promise<UnitCountRow | null>;
  /** The dropped counts and open epoch of a user-level model (zeros and -1 before any reward). */
  unitTotals(model: string): Promise<UnitTotals>;
  /** Rows of the unit-count table of `model` (for memory and disk reports and tests). */
  unitCountRows(model: string): Promise<number>;
  /**
   * Decisions of `model` without a reward whose time is before `before` (ms), oldest first, at most
   * `limit`: the candidates for the default reward.
   */
  expiredDecisions(model: string, before: number, limit: number): Promise<readonly DecisionRow[]>;
  /**
   * The stored candidate features (k x dim, row-major, as received; only the chosen arm's d when the
   * model does not log candidates) and clipped count (null on rows stored before schema 5) of every
   * decision of `model` made at model version `version`: the decisions since the last release, which
   * its snapshot does not know.
   */
  decisionFeaturesAt(
    model: string,
    version: number,
  ): Promise<readonly { readonly features: Float64Array; readonly clipped: number | null }[]>;
  /** Last snapshot, version and pending rewards of a model (null when the model does not exist). */
  loadModelState(model: string): Promise<ModelState | null>;
  /** The model's releases, oldest first. */
  ledger(model: string): Promise<readonly LedgerRow[]>;
  counts(model: string): Promise<ModelCounts>;
  /** Decisions in the order they were made (by `seq`). */
  exportDecisions(model: string, options: ExportOptions): Promise<readonly DecisionRow[]>;
  /**
   * Resolves once every write made before this call has committed; rejects when that commit failed
   * (then nothing of those writes is stored).
   */
  durable(): Promise<void>;
  /**
   * Deletes model `name` in one transaction (docs/serving.md, "Deleting a model"). Tombstone
   * (`purge: false`): the model row moves to the tombstones, its decisions (candidate features,
   * logged rewards, units), raw pending rewards and unit counts are erased, its ledger (and the
   * dropped-reward totals of a user-level model) stay. Purge: the model or its tombstone, the rows
   * above and the ledger are removed. Writes racing with the deletion (a decision or reward of
   * another replica) either commit before it (and are erased by it) or find the model gone.
   */
  deleteModel(name: string, options: DeleteModelOptions): Promise<DeleteModelResult>;
  /** The tombstone of a deleted model, or null. */
  tombstone(name: string): Promise<TombstoneRow | null>;
  /** Every tombstone, by name. */
  listTombstones(): Promise<readonly TombstoneRow[]>;
  /**
   * Removes decisions of `model` older than the retention (see {@link ExpireDecisionsOptions});
   * never a decision whose reward waits for its release. Returns how many were removed.
   */
  expireDecisions(model: string, options: ExpireDecisionsOptions): Promise<number>;
  /** Liveness of the engine (a trivial query). */
  ping(): Promise<void>;
  /** Writes a consistent copy of the database to `path` (online: every write committed before the call, none after). */
  backup(path: string): Promise<void>;
  close(): Promise<void>;
}
