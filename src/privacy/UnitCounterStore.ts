/**
 * Where a user-level policy keeps its units' contribution counts ({@link UnitCount}, one record per
 * unit). Pluggable: {@link MemoryUnitCounters} for library users (saved in the policy's snapshot),
 * and, in the service, a view over rows of the store that are written in the same transaction as
 * the reward that changed them.
 */
import type { UnitCount } from './admitContribution.js';

export interface UnitCounterStore {
  /** The unit's count, or undefined when it has none (or one the store has expired). */
  get(unit: string): UnitCount | undefined;
  /** Replaces the unit's count (called only with the `next` of a kept reward). */
  set(unit: string, count: UnitCount): void;
  /**
   * Optional (subsampled releases): the sampling draw already made and kept for `unit` in release
   * `release`, or undefined when there is none. A store that outlives the policy's memory (the
   * service's, whose rows are written in the reward's transaction) answers it while the policy
   * replays rewards it had already learned once, so that a restart never draws a unit again for a
   * release it was drawn for.
   */
  drawn?(unit: string, release: number): boolean | undefined;
  /** Epoch `epoch` has begun: counts of earlier epochs are dead and may be deleted. */
  expireBefore(epoch: number): void;
  /** The counts as JSON-safe data for the policy's snapshot, or null when they live elsewhere (a store). */
  toJSON(): unknown;
  /** Restores `toJSON` output (a store-backed implementation ignores it). */
  load(json: unknown): void;
}
