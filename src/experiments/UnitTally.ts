/**
 * Counts the rewards a run gives its policy per privacy unit (user), for the per-unit figures of the
 * user-level study: what group privacy promises a unit depends on how many of its rewards were used.
 * Cost: O(1) expected per reward (a Map), O(units log units) for the histogram.
 */
import type { UnitRewardCounts } from './types.js';

export class UnitTally {
  private readonly counts = new Map<string, number>();
  private total = 0;

  /** One reward of `unit` was given to the policy. */
  add(unit: string): void {
    this.counts.set(unit, (this.counts.get(unit) ?? 0) + 1);
    this.total++;
  }

  /**
   * The histogram of rewards per unit.
   *
   * @example
   * const t = new UnitTally(); t.add('a'); t.add('a'); t.add('b');
   * t.result().histogram; // returns [[1, 1], [2, 1]]
   */
  result(): UnitRewardCounts {
    const byCount = new Map<number, number>();
    for (const c of this.counts.values()) byCount.set(c, (byCount.get(c) ?? 0) + 1);
    const histogram = [...byCount.entries()].sort((a, b) => a[0] - b[0]).map(([c, n]) => [c, n] as const);
    return { units: this.counts.size, rewards: this.total, histogram };
  }
}
