/**
 * Quantiles of the rewards per privacy unit of a run (from the histogram the runner records), for
 * the per-person figures of the user-level study: the median unit and the heaviest one.
 */
import type { UnitRewardCounts } from '../../types.js';

/** Rewards per unit: median (lower median for an even count of units), 90th percentile and maximum. */
export interface UnitCountStats {
  readonly units: number;
  readonly rewards: number;
  readonly median: number;
  readonly p90: number;
  readonly max: number;
}

/** The smallest count c such that at least a fraction `p` of the units have at most c rewards. */
function quantile(h: UnitRewardCounts, p: number): number {
  const need = Math.max(1, Math.ceil(p * h.units));
  let seen = 0;
  for (const [count, units] of h.histogram) {
    seen += units;
    if (seen >= need) return count;
  }
  return h.histogram.at(-1)?.[0] ?? 0;
}

/**
 * @example
 * unitCountStats({ units: 3, rewards: 12, histogram: [[1, 1], [2, 1], [9, 1]] }); // returns { units: 3, rewards: 12, median: 2, p90: 9, max: 9 }
 */
export function unitCountStats(h: UnitRewardCounts): UnitCountStats {
  if (h.units === 0) return { units: 0, rewards: 0, median: 0, p90: 0, max: 0 };
  return {
    units: h.units,
    rewards: h.rewards,
    median: quantile(h, 0.5),
    p90: quantile(h, 0.9),
    max: h.histogram.at(-1)![0],
  };
}
