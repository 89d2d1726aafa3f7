/**
 * A store that several service replicas can share (PostgreSQL): besides {@link Store}, the release
 * of one batch exactly once across replicas, the released state without the raw rewards, and the
 * release notifications a replica refreshes its decision view from (docs/serving.md, "Several
 * replicas").
 */
import type { LedgerRow, ReleaseInput } from './rows.js';
import type { ModelState, Store } from './Store.js';

/**
 * Computes a batch release from the locked state (see {@link ReplicaStore.releaseBatch}): the last
 * released snapshot and version, and the batch's raw rewards. Returns the release to commit, or
 * null to commit nothing. Runs while the model row is locked: keep it short and free of I/O.
 */
export type ComputeRelease = (state: ModelState) => ReleaseInput | null | Promise<ReleaseInput | null>;

/** The state of a model as of its last release: public (no raw reward in it). */
export interface ReleasedState {
  /** Number of committed releases. */
  readonly version: number;
  /** Rounds learned by the last release (0 before the first). */
  readonly rounds: number;
  /** Policy snapshot written with the last release (the fresh policy's before the first). */
  readonly snapshot: string;
}

export interface ReplicaStore extends Store {
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
  /** The committed version of `model` (a cheap check), or null when it does not exist. */
  modelVersion(model: string): Promise<number | null>;
  /** The last released state of `model` (never the raw rewards), or null when it does not exist. */
  releasedState(model: string): Promise<ReleasedState | null>;
  /** Number of rewards of `model` waiting for their release (reads no reward value). */
  pendingCount(model: string): Promise<number>;
  /** Calls `listener` after every committed release by any replica; resolves with a stop function. */
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
    typeof s.releasedState === 'function' &&
    typeof s.pendingCount === 'function' &&
    typeof s.onRelease === 'function'
  );
}
