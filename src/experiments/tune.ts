import type { SettingSummary, TuningResult } from './types.js';

/**
 * Grid-search tuning as the paper did: for every (policy, epsilon), the hyperparameter setting
 * with the highest mean reward over seeds (ties: the smaller setting id). Every setting is kept
 * in `all` (best first), so the tuned number can always be reported together with the grid.
 *
 * @example
 * tune(summarise(result.cells)).find((t) => t.policy === 'adaprivate-ts')?.best.params; // returns e.g. { batchSize: 300, v: 1 }
 */
export function tune(summaries: readonly SettingSummary[]): TuningResult[] {
  const groups = new Map<string, SettingSummary[]>();
  for (const s of summaries) {
    const k = `${s.policy}|${s.epsilon ?? 'none'}`;
    const g = groups.get(k);
    if (g === undefined) groups.set(k, [s]);
    else g.push(s);
  }
  const out: TuningResult[] = [];
  for (const g of groups.values()) {
    const all = [...g].sort(
      (a, b) =>
        b.meanReward.mean - a.meanReward.mean || (a.setting < b.setting ? -1 : a.setting > b.setting ? 1 : 0),
    );
    const best = all[0]!;
    out.push({ policy: best.policy, epsilon: best.epsilon, best, all });
  }
  return out;
}
