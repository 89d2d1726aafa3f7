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
  /** Epoch `epoch` has begun: counts of earlier epochs are dead and may be deleted. */
  expireBefore(epoch: number): void;
  /** The counts as JSON-safe data for the policy's snapshot, or null when they live elsewhere (a store). */
  toJSON(): unknown;
  /** Restores `toJSON` output (a store-backed implementation ignores it). */
  load(json: unknown): void;
}
