import { seedStats } from './seedStats.js';
import type { SeedStats, SettingSummary } from './types.js';

/** `a` relative to a reference, in percent. */
export interface PercentOf {
  /** 100 * mean(a) / mean(reference): the paper's "percent of X". */
  readonly percent: number;
  /** Per-seed ratios 100 * a_s / ref_s on common seeds (mean, std, CI), or null without common seeds. */
  readonly perSeed: SeedStats | null;
}

/**
 * Mean reward of `a` as a percentage of `reference` (e.g. of the non-private LinTS).
 *
 * @example
 * percentOf(tsSummary, lintsSummary).percent; // returns e.g. 96.7
 */
export function percentOf(a: SettingSummary, reference: SettingSummary): PercentOf {
  const ra = a.meanReward;
  const rb = reference.meanReward;
  const percent = (100 * ra.mean) / rb.mean;
  const refBySeed = new Map(rb.seeds.map((s, i) => [s, rb.perSeed[i]!]));
  const seeds: number[] = [];
  const ratios: number[] = [];
  ra.seeds.forEach((s, i) => {
    const r = refBySeed.get(s);
    if (r !== undefined) {
      seeds.push(s);
      ratios.push((100 * ra.perSeed[i]!) / r);
    }
  });
  return { percent, perSeed: seeds.length > 0 ? seedStats(ratios, seeds) : null };
}
