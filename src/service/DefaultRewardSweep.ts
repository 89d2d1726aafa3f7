/**
 * The schedule of a model's default-reward sweep, shared by both runtimes ({@link ModelRuntime} on
 * one server, {@link ReplicaRuntime} on replicas): at most one sweep per `sweepIntervalMs`, each
 * reading at most {@link SWEEP_LIMIT} decisions whose reward window has closed without a reward. What
 * a runtime then does with each decision (learn it in memory, or store it pending) is its own.
 */
import type { DecisionRow, ModelRow, Store } from '../store/index.js';

/** Most expired decisions given their default reward in one sweep. */
export const SWEEP_LIMIT = 1000;

/** What one sweep gives: the default reward and the decisions it is given to (oldest first). */
export interface DueDefaultRewards {
  /** The model's `defaultReward` setting. */
  readonly reward: number;
  /** At most {@link SWEEP_LIMIT} decisions without a reward whose window closed, oldest first. */
  readonly rows: readonly DecisionRow[];
}

export class DefaultRewardSweep {
  /** When the last sweep started (ms since the epoch); none yet: -Infinity. */
  private last = Number.NEGATIVE_INFINITY;

  /**
   * The decisions of model `row` due for the default reward at time `now`, or null when the model
   * has no default reward or the last sweep started less than `intervalMs` ago (0: sweep every
   * time). A sweep counts as started before the store is read, so overlapping calls do not both
   * sweep.
   *
   * @example
   * const due = await sweeps.due(row, store, Date.now(), 1000); // null, or { reward: 0, rows: [...] }
   */
  async due(row: ModelRow, store: Store, now: number, intervalMs: number): Promise<DueDefaultRewards | null> {
    const reward = row.settings.defaultReward;
    if (reward === null || now - this.last < intervalMs) return null;
    this.last = now;
    const cutoff = now - row.settings.rewardWindowSeconds * 1000;
    return { reward, rows: await store.expiredDecisions(row.name, cutoff, SWEEP_LIMIT) };
  }
}
